/**
 * `rein demo`: the runtime at work with no key and no network. A scripted model drives real
 * tools through every standard plugin (loaded from the CLI's own demo/rein.yaml), and the
 * terminal shows each batch live: parallel groups, a barrier, a denial, a timeout, a retry
 * that succeeds, a cache hit, a spilled output and a reference to another call's result.
 * It ends with a summary and leaves the session JSONL (for `rein trace`) and the audit log.
 */
import { rm } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import type { Harness } from '@rein/loader'
import { stringOption, type Command } from '../command.js'
import { DEMO_TASK, demoScript } from '../demo/script.js'
import { println } from '../io.js'
import { runLive } from '../live-run.js'
import { summaryLines } from '../progress/lines.js'
import { RunStats } from '../progress/stats.js'
import { createStyle, wantsColor } from '../progress/style.js'
import { createView } from '../progress/view.js'
import { reinCommand, shellWord } from '../invocation.js'
import { demoConfig } from '../paths.js'

/** Where the session goes unless `--session` says otherwise (relative to the working directory). */
export const DEFAULT_DEMO_SESSION = '.rein/demo-session.jsonl'

export const demo: Command = {
  name: 'demo',
  summary: 'watch a scripted model drive real tools through every standard plugin (no key, no network)',
  usage: 'rein demo [--session <path>] [--fast]',
  help: `
Runs a scripted model (no API key, no network) against real demo tools through the standard
plugin stack (audit, cache, retry, timeout-policy, permission-guard, spill) and shows each
batch live: calls starting and finishing in parallel groups, an exclusive write that acts as
a barrier, a denied call, a timeout, a retry that succeeds, a cache hit, a spilled output and
a call that uses another call's result. Ends with a summary and writes the session JSONL
(replaced on every demo run); open it with rein trace.

Options:
  --session <path>     where to write the session (default ${DEFAULT_DEMO_SESSION})
  --fast               ten times shorter simulated latencies (the timeout still takes 500ms)`,
  options: {
    session: { type: 'string' },
    fast: { type: 'boolean' },
  },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    const [{ jsonlSession }, { describeChains, formatChains, loadHarness }, { scripted }] =
      await Promise.all([import('@rein/agent'), import('@rein/loader'), import('@rein/testing')])
    const style = createStyle(wantsColor(io.isTTY, io.env))
    const sessionPath = resolve(io.cwd, stringOption(args, 'session', DEFAULT_DEMO_SESSION))
    await rm(sessionPath, { force: true })
    const view = createView(io)
    const provider = scripted(demoScript(args.values.fast ? 0.1 : 1))
    const store = jsonlSession(sessionPath)
    const harness = await loadHarness(demoConfig(), { provider, session: store, env: io.env })
    const stats = new RunStats()
    try {
      println(io.stdout, style.bold('rein demo') + ' — a scripted model (no key, no network) drives real tools through these chains:')
      for (const line of formatChains(describeChains(harness.ctx)).split('\n')) println(io.stdout, style.dim(`  ${line}`))
      println(io.stdout, `task: ${DEMO_TASK}`)
      const { exitCode } = await runLive({ harness, input: DEMO_TASK, io, view, stats })
      view.close()
      for (const line of summaryLines(stats.summary(), style)) println(io.stdout, line)
      const shown = (path: string) => relative(io.cwd, path) || path
      println(io.stdout, `  session      ${shown(sessionPath)}   (draw it: ${reinCommand(io.cwd, io.env)} trace ${shellWord(shown(sessionPath))})`)
      const audit = auditFile(harness)
      if (audit) println(io.stdout, `  audit log    ${shown(resolve(process.cwd(), audit))}`)
      return exitCode
    } finally {
      view.close()
      await harness.dispose()
      await store.close?.()
    }
  },
}

/** The audit plugin's `file` as configured (the plugin resolves it from the process' working directory). */
function auditFile(harness: Harness): string | undefined {
  const entry = harness.entries.find((e) => (e.plugin as { name?: unknown }).name === 'audit')?.entry
  const file = (entry?.config as { file?: unknown } | undefined)?.file
  return typeof file === 'string' ? file : undefined
}
