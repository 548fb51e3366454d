/**
 * What `rein demo` does (its options are in `demo.ts`): loads the CLI's own demo harness with a
 * scripted provider, shows the chains, runs the task live and prints the summary. Imported
 * only when the command runs, with the agent, the loader and the live view.
 */
import { rm } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import type { Harness } from '@rein/loader'
import { stringOption, type Parsed } from '../command.js'
import { DEMO_TASK, demoScript } from '../demo/script.js'
import { println, type Io } from '../io.js'
import { runLive } from '../live-run.js'
import { summaryLines } from '../progress/lines.js'
import { RunStats } from '../progress/stats.js'
import { createStyle, wantsColor } from '../progress/style.js'
import { createView } from '../progress/view.js'
import { reinCommand, shellWord } from '../invocation.js'
import { demoConfig } from '../paths.js'
import { DEFAULT_DEMO_SESSION } from './demo.js'

/** Runs the demo; resolves with the exit code of the run. */
export async function runDemo(args: Parsed, io: Io): Promise<number> {
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
}

/** The audit plugin's `file` as configured (the plugin resolves it from the process' working directory). */
function auditFile(harness: Harness): string | undefined {
  const entry = harness.entries.find((e) => (e.plugin as { name?: unknown }).name === 'audit')?.entry
  const file = (entry?.config as { file?: unknown } | undefined)?.file
  return typeof file === 'string' ? file : undefined
}
