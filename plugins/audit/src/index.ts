/** @rein/plugin-audit: rein policy plugin: one redacted JSON line per finished tool call. */
export {}
