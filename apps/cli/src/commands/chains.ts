/**
 * `rein chains`: each hook's onion order, outermost first, with the plugin that owns each
 * layer, as the loaded harness really has it (file order = onion order). It never asks the
 * model: the file's provider is not loaded, nor is the agent loop (`inspectOnly`). With `--json`,
 * stdout is one JSON document.
 */
import { resolve } from 'node:path'
import type { Provider } from '@rein/kernel'
import { stringOption, type Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { reportWarnings } from '../failures.js'
import { println } from '../io.js'
import { printJson } from '../json.js'

/** Stands in for the file's provider, so that commands which never run the model do not load one. */
export const NO_MODEL: Provider = {
  async generate() {
    throw new Error('this command does not run the model')
  },
}

export const chains: Command = {
  name: 'chains',
  summary: "print each hook's onion order with the plugin that owns each layer",
  usage: 'rein chains [-c rein.yaml] [--json]',
  help: `
Loads the plugins and tools of the config file (the model is not loaded or called) and prints,
for each stage of the tool-call pipeline, the plugins on its hook from the outermost to the
innermost. Plugins listed first in the file are outermost.

Options:
  -c, --config <file>  the harness file (default ./rein.yaml)
  --json               print the chains as one JSON document on stdout`,
  options: { config: { type: 'string', short: 'c' }, json: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    const { describeChains, formatChains, loadHarness } = await import('@rein/loader')
    const file = resolve(io.cwd, stringOption(args, 'config', 'rein.yaml'))
    const harness = await loadHarness(file, { provider: NO_MODEL, env: io.env, inspectOnly: true })
    try {
      reportWarnings(harness.warnings, io, 'chains')
      const entries = harness.entries.map((e) => e.entry?.use ?? e.label)
      const chains = describeChains(harness.ctx)
      if (args.values.json) {
        printJson(io, { ok: true, file, entries, chains, warnings: harness.warnings })
        return ExitCodes.OK
      }
      println(io.stdout, `plugins in file order: ${entries.join(', ') || '(none)'}`)
      println(io.stdout, formatChains(chains))
      return ExitCodes.OK
    } finally {
      await harness.dispose()
    }
  },
}
