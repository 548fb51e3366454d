/** @rein/plugin-permission-guard: rein policy plugin: allow/deny/ask rules by tool glob and argument matchers, with an approval service. */
export {}
