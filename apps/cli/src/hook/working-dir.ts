/**
 * The hook judges a call from the host's working directory, the hook input's `cwd`: Claude
 * Code's path rules written `./x` or `x` mean "from there", and plugins read them from the
 * process's working directory when the harness is applied. So the one-shot hook enters that
 * folder before it loads the harness (paths written in rein.yaml are not moved by this: the
 * loader reads `./x`, `../x` and `use:` from the config file's folder).
 */
import { HookInputError } from './input.js'

/**
 * Makes `cwd` the process's working directory; returns what goes back to the one before. A
 * `HookInputError` when `cwd` is not a folder rein can enter: rein would judge the call's
 * paths from the wrong place, so the call is refused.
 */
export function enterHostDir(cwd: string): () => void {
  const before = process.cwd()
  try {
    process.chdir(cwd)
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new HookInputError(`cwd ${JSON.stringify(cwd)} is not a folder rein can enter (${why}); rein reads path rules from the input's cwd, so it refuses the call`)
  }
  return () => {
    try {
      process.chdir(before)
    } catch { /* the folder is gone; the process ends after the answer anyway */ }
  }
}
