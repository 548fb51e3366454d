/** @rein/plugin-cache: rein policy plugin: caches successes of idempotent tools, TTL + LRU, in-flight de-duplication. */
export {}
