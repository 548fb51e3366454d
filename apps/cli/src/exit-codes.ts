/**
 * The exit codes of `rein`, in one place. Every command returns one of these; the help of
 * every command and the README print the same table, so scripts can rely on them.
 */

/** What a `rein` process exits with. */
export const ExitCodes = {
  /** The command did what it was asked. */
  OK: 0,
  /** It failed: a config that does not load, a run that ended badly, `rein check` found problems. */
  FAILURE: 1,
  /** The command line itself is wrong: unknown command or option, missing argument. */
  USAGE: 2,
  /** The run stopped to wait for a person's answer (calls parked for approval: `rein approvals`, `rein approve`). */
  AWAITING_APPROVAL: 3,
  /** The run was cancelled by someone else (`rein cancel`), not by this process' Ctrl-C. */
  CANCELLED: 4,
  /** Interrupted with Ctrl-C (SIGINT), as shells report 128 + 2. */
  INTERRUPTED: 130,
} as const

export type ExitCode = typeof ExitCodes[keyof typeof ExitCodes]

/** The exit-code table as it appears at the end of every help text. */
export const EXIT_CODES_HELP = [
  'Exit codes:',
  '  0    ok',
  '  1    failure (the config does not load, the run failed, check found problems, or init would overwrite a file)',
  '  2    usage error (unknown command or option, missing argument)',
  '  3    awaiting approval (the run parked calls for a person: rein approvals lists them, rein approve answers)',
  '  4    cancelled (rein submit: the run was cancelled by rein cancel)',
  '  130  interrupted (Ctrl-C)',
].join('\n')
