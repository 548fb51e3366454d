/** @rein/plugin-timeout-policy: rein policy plugin: per-tool deadlines on tools/execute, cooperative first, abandoned after a grace period. */
export {}
