/**
 * `rein check`: does this harness load, and do its few-shot examples agree with its tools?
 * It loads the config, the provider entry and every plugin and tool with its config (each
 * validated by its own schema), but never builds the agent or calls the model; then it checks
 * every example tool call against its tool's parameter schema. Exit 1 on any problem.
 */
import { resolve } from 'node:path'
import { stringOption, type Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { configProblemLines } from '../failures.js'
import { println } from '../io.js'
import { createStyle, wantsColor } from '../progress/style.js'

export const check: Command = {
  name: 'check',
  summary: 'load the config and plugin configs without running, and check few-shot examples against tool schemas',
  usage: 'rein check [-c rein.yaml]',
  help: `
Loads the config file as rein run would (provider entry, plugins and tools, each config
checked by its plugin's schema) without building the agent or calling the model, then checks
every few-shot tool call in the files listed under "examples" against its tool's parameter
schema. Every problem is printed as file:line entry: message, all of them at once. An
entry marked optional that fails is printed as a warning and does not fail the check.
Exit 1 if there is any problem.

Options:
  -c, --config <file>  the harness file (default ./rein.yaml)`,
  options: { config: { type: 'string', short: 'c' } },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    const { checkExamples, loadHarness } = await import('@rein/loader')
    const style = createStyle(wantsColor(io.isTTY, io.env))
    const file = resolve(io.cwd, stringOption(args, 'config', 'rein.yaml'))
    let harness
    try {
      harness = await loadHarness(file, { env: io.env })
    } catch (error) {
      const lines = configProblemLines(error)
      if (!lines) throw error
      for (const line of lines) println(io.stderr, `${style.red('✗')} ${line}`)
      if (lines.length > 1) println(io.stderr, `${lines.length} problems in ${file}`)
      return ExitCodes.FAILURE
    }
    try {
      const { config, entries, provider, warnings } = harness
      for (const warning of warnings) println(io.stderr, `${style.yellow('!')} warning: ${warning}`)
      const tools = harness.ctx.tools.specs().length
      println(io.stdout, `${style.green('✓')} ${file}: ${provider ? 'a provider, ' : 'no provider, '}` +
        `${config.plugins.length} plugin(s), ${config.tools.length} tool source(s) (${tools} tools), all configs valid`)
      if (entries.length === 0) println(io.stdout, '  (no plugins or tools listed)')
      const report = await checkExamples(harness)
      for (const problem of report.problems) println(io.stderr, `${style.red('✗')} ${problem.message}`)
      const files = config.examples.length
      if (report.problems.length > 0) {
        println(io.stderr, `${report.problems.length} problem(s) in ${files} example file(s), ${report.checked} tool call(s) checked`)
        return ExitCodes.FAILURE
      }
      println(io.stdout, `${style.green('✓')} ${report.checked} example tool call(s) in ${files} file(s) match their tools' schemas`)
      return ExitCodes.OK
    } finally {
      await harness.dispose()
    }
  },
}
