#!/usr/bin/env node
// Start-up cost of the `rein` command, measured as a user pays it: a fresh process each
// time. Compares a bare `node -e ""`, `rein --help` (the CLI's own modules) and
// `rein chains -c demo/rein.yaml` (config, kernel and all six standard plugins loaded and
// applied), and one `rein hook claude-code` PreToolUse round trip (the hook's JSON on stdin,
// its answer on stdout), which Claude Code pays once per tool call: in its own process, and with
// `--resident` (answered by a resident process that keeps the harness loaded; it is started by
// the warm-up round and stopped at the end by touching its config file). Runs are interleaved so that machine noise hits every command alike; the load
// average before and after is printed with the figures, which mean little on a busy machine.
// Usage: node bench/startup.mjs [--runs N]   (build first: npx -y pnpm@10 build)
import { spawnSync } from 'node:child_process'
import { existsSync, realpathSync, utimesSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = fileURLToPath(new URL('../bin/rein.mjs', import.meta.url))
const demo = fileURLToPath(new URL('../demo/rein.yaml', import.meta.url))
const hookPolicy = fileURLToPath(new URL('./claude-hook.yaml', import.meta.url))
const preToolUse = JSON.stringify({
  session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status' }, tool_use_id: 'toolu_1', cwd: root,
})
const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } })
const runs = Math.max(1, Number(values.runs) || 10)

if (!existsSync(new URL('../dist/src/main.js', import.meta.url))) {
  console.error('build first: npx -y pnpm@10 build (bin/rein.mjs imports dist/src/main.js)')
  process.exit(1)
}

const commands = [
  { label: 'node -e ""', args: ['-e', ''] },
  { label: 'rein --help', args: [bin, '--help'] },
  { label: 'rein chains -c demo/rein.yaml', args: [bin, 'chains', '-c', demo] },
  { label: 'rein hook claude-code (PreToolUse)', args: [bin, 'hook', 'claude-code', '-c', hookPolicy], input: preToolUse },
  { label: 'rein hook claude-code --resident', args: [bin, 'hook', 'claude-code', '--resident', '-c', hookPolicy], input: preToolUse },
]
const { socketPath } = await import('../dist/src/hook/resident.js')
const socket = socketPath(hookPolicy, realpathSync(root)) // the input's cwd is root

function once(args, input) {
  const start = process.hrtime.bigint()
  const result = spawnSync(process.execPath, args, { cwd: root, input, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return ms
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ')
const loadBefore = load()
for (const c of commands) once(c.args, c.input) // warm the file cache
while (socket && !existsSync(socket)) await new Promise((resolve) => setTimeout(resolve, 50))
const times = commands.map(() => [])
for (let i = 0; i < runs; i++) commands.forEach((c, j) => times[j].push(once(c.args, c.input)))
utimesSync(hookPolicy, new Date(), new Date()) // the resident process sees its config change and exits

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const base = mean(times[0])
const baseMedian = median(times[0])
const rows = commands.map((c, j) => [c.label, mean(times[j]).toFixed(1), median(times[j]).toFixed(1),
  (mean(times[j]) / base).toFixed(2), (median(times[j]) / baseMedian).toFixed(2)])
const head = ['command', 'mean ms', 'median ms', 'x node', 'x node (median)']
const widths = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)))
const line = (cells) => cells.map((cell, k) => (k === 0 ? cell.padEnd(widths[k]) : cell.padStart(widths[k]))).join('  ')
console.log(`start-up of rein, ${runs} fresh processes per command (node ${process.version}; load average ${loadBefore} before, ${load()} after)`)
console.log(line(head))
console.log(widths.map((w) => '-'.repeat(w)).join('  '))
for (const row of rows) console.log(line(row))
