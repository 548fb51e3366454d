/**
 * What `bin/rein.mjs` runs. Claude Code starts `rein hook` once per tool call, so that one
 * command is run without importing the others (`main.ts` imports every command's help): with
 * `--resident`, a call answered by the resident process then costs little more than a bare
 * Node start. Every other command goes through `main`. Both paths parse, run and report alike
 * (`run-command.ts`).
 */
import type { Io } from './io.js'

/** Runs `rein` with `argv` (the arguments after the script name); resolves with the exit code. */
export async function rein(argv: readonly string[], io: Io): Promise<number> {
  if (argv[0] === 'hook') {
    const [{ runCommand }, { hook }] = await Promise.all([import('./run-command.js'), import('./commands/hook.js')])
    return runCommand(hook, argv.slice(1), io)
  }
  const { main } = await import('./main.js')
  return main(argv, io)
}
