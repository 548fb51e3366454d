/**
 * The codes the file tools put on the errors they throw. The kernel turns a thrown error's
 * `code` into `error.info.code` of the result, so a policy or a test matches on these strings,
 * never on message text. Confinement (`@rein/workspace`) throws the kernel's own `TOOL_DENIED`,
 * and `NOT_FOUND` / `WRONG_TYPE` for paths that are missing or of the wrong kind.
 */
import { TOOL_DENIED } from '@rein/kernel'

export { TOOL_DENIED }
/** The path does not exist (or its links form a loop). */
export { NOT_FOUND } from '@rein/workspace'
/** The path exists but is not what the tool needs (a directory for read_file, a file for list_dir, a FIFO, socket or device). */
export { WRONG_TYPE } from '@rein/workspace'
/**
 * The file is not text: it contains NUL bytes (`read_file`, `edit_file`), or it is not valid
 * UTF-8 (`edit_file`, which would change every byte it cannot decode).
 */
export const NOT_TEXT = 'NOT_TEXT'
/** edit_file: `old_string` does not occur in the file. */
export const EDIT_NO_MATCH = 'EDIT_NO_MATCH'
/** edit_file: `old_string` occurs more than once and `replace_all` is not set. */
export const EDIT_NOT_UNIQUE = 'EDIT_NOT_UNIQUE'
/** edit_file: `old_string` and `new_string` are the same, so the edit would change nothing. */
export const EDIT_NO_CHANGE = 'EDIT_NO_CHANGE'
/** edit_file: the file changed after it was read (another process wrote to it); it was left as it is. */
export const EDIT_CHANGED = 'EDIT_CHANGED'
/** edit_file: the file is larger than `maxEditBytes`. */
export const TOO_LARGE = 'TOO_LARGE'
/** grep: the pattern is not a valid JavaScript regular expression; glob/grep: a bad glob. */
export const INVALID_PATTERN = 'INVALID_PATTERN'

