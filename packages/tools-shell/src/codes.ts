/**
 * The codes the bash tool puts on the errors it throws (the kernel turns a thrown error's
 * `code` into the result's code). A command that runs and exits non-zero is not an error:
 * its exit code is in the value. Confinement refusals use the kernel's own `TOOL_DENIED`.
 */
import { TOOL_DENIED } from '@rein/kernel'

export { TOOL_DENIED }
/** The `cwd` does not exist, or is not a folder. */
export const BAD_CWD = 'BAD_CWD'
/** The shell could not be started at all (the command never ran). */
export const SPAWN_FAILED = 'SPAWN_FAILED'
