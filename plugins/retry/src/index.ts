/** @rein/plugin-retry: rein policy plugin: retries transient failures of idempotent tools with full-jitter backoff. */
export {}
