/**
 * `rein check`: does this harness load, and do its few-shot examples agree with its tools?
 * It loads the config, the provider entry and every plugin and tool with its config (each
 * validated by its own schema), but never builds the agent (`inspectOnly`: the agent loop is
 * not even loaded) or calls the model; then it checks every example tool call (in the example
 * files and inline in `agent.system`) against its tool's parameter schema. Exit 1 on any
 * problem. Plugins listed against the order their packages declare, and optional entries left
 * out, are printed as warnings.
 * With `--json`, stdout is one JSON document (see `../json.ts`); problems still go to stderr.
 */
import { resolve } from 'node:path'
import { stringOption, type Command } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { configProblemLines } from '../failures.js'
import { println } from '../io.js'
import { printJson, problemsOf } from '../json.js'
import { createStyle, wantsColor } from '../progress/style.js'

export const check: Command = {
  name: 'check',
  summary: 'load the config and plugin configs without running, and check few-shot examples against tool schemas',
  usage: 'rein check [-c rein.yaml] [--json]',
  help: `
Loads the config file as rein run would (provider entry, plugins and tools, each config
checked by its plugin's schema) without building the agent or calling the model, then checks
every few-shot tool call in the files listed under "examples", and every one written inline
in agent.system (a line that is only tool_name({...json...}), or a \`\`\`json block holding
{ "tool": ..., "arguments": ... }), against its tool's parameter schema: the system prompt
rein run builds from them. Every problem is printed as file:line entry: message, all of them
at once. An entry marked optional that fails is printed as a warning and does not fail the
check, and so is a pair of plugins listed against the order their packages declare (the
first listed is the outermost: cache before retry, retry before timeout-policy, audit before
permission-guard). Exit 1 if there is any problem.

Options:
  -c, --config <file>  the harness file (default ./rein.yaml)
  --json               print the result as one JSON document on stdout (problems also on stderr)`,
  options: { config: { type: 'string', short: 'c' }, json: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    const { checkExamples, loadHarness } = await import('@rein/loader')
    const json = args.values.json === true
    const style = createStyle(!json && wantsColor(io.isTTY, io.env))
    const file = resolve(io.cwd, stringOption(args, 'config', 'rein.yaml'))
    let harness
    try {
      harness = await loadHarness(file, { env: io.env, inspectOnly: true })
    } catch (error) {
      const lines = configProblemLines(error)
      if (!lines) throw error
      for (const line of lines) println(io.stderr, `${style.red('✗')} ${line}`)
      if (lines.length > 1) println(io.stderr, `${lines.length} problems in ${file}`)
      if (json) printJson(io, { ok: false, file, problems: problemsOf(error) })
      return ExitCodes.FAILURE
    }
    try {
      const { config, entries, provider, warnings } = harness
      for (const warning of warnings) println(io.stderr, `${style.yellow('!')} warning: ${warning}`)
      const tools = harness.ctx.tools.specs().length
      const out = json ? { write: () => {} } : io.stdout
      println(out, `${style.green('✓')} ${file}: ${provider ? 'a provider, ' : 'no provider, '}` +
        `${config.plugins.length} plugin(s), ${config.tools.length} tool source(s) (${tools} tools), all configs valid`)
      if (entries.length === 0) println(out, '  (no plugins or tools listed)')
      const report = await checkExamples(harness)
      for (const problem of report.problems) println(io.stderr, `${style.red('✗')} ${problem.message}`)
      const files = config.examples.length
      const inSystem = report.inline > 0 ? ' and agent.system' : ''
      if (json) {
        printJson(io, {
          ok: report.problems.length === 0, file, provider: Boolean(provider), plugins: config.plugins.length,
          toolSources: config.tools.length, tools, warnings, examples: { files, checked: report.checked, inline: report.inline },
          problems: report.problems.map((p) => ({
            message: p.message, file: p.file, ...(p.line !== undefined ? { line: p.line } : {}), ...(p.tool !== undefined ? { tool: p.tool } : {}),
          })),
        })
      }
      if (report.problems.length > 0) {
        println(io.stderr, `${report.problems.length} problem(s) in ${files} example file(s)${inSystem}, ${report.checked} tool call(s) checked`)
        return ExitCodes.FAILURE
      }
      if (report.checked > 0) {
        println(out, `${style.green('✓')} ${report.checked} example tool call(s) in ${files} file(s)${inSystem} match their tools' schemas`)
      } else if (files === 0) {
        println(out, '  no few-shot examples to check (an "examples:" list in the config names files of example tool calls)')
      } else {
        println(out, `  no tool calls to check in the ${files} example file(s)`)
      }
      return ExitCodes.OK
    } finally {
      await harness.dispose()
    }
  },
}
