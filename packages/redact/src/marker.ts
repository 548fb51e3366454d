/** What every redacted secret is replaced by, whoever redacts it: one marker, never a fragment. */
export const REDACTED = '[REDACTED]'
