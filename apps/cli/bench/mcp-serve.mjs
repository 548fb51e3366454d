#!/usr/bin/env node
// Cold start of `rein mcp serve`, as an MCP client pays it: a fresh process started with
// pipes, sent `initialize`, `notifications/initialized` and `tools/list` at once, timed until
// the `tools/list` answer arrives on stdout. Beside it, bare `node -e ""` started the same
// way (spawned with pipes, timed until it exits), and the ratio of the two. The harness is
// demo/rein.yaml (the six standard plugins and the demo's tools); a second row puts the
// everything MCP server behind it (its start is then part of rein's). Runs are interleaved.
// Usage: node bench/mcp-serve.mjs [--runs N]   (build first: npx -y pnpm@10 build)
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const bin = fileURLToPath(new URL('../bin/rein.mjs', import.meta.url))
const demo = fileURLToPath(new URL('../demo/rein.yaml', import.meta.url))
const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } })
const runs = Math.max(1, Number(values.runs) || 10)

if (!existsSync(new URL('../dist/src/main.js', import.meta.url))) {
  console.error('build first: npx -y pnpm@10 build (bin/rein.mjs imports dist/src/main.js)')
  process.exit(1)
}

// The audit file of demo/rein.yaml is written under the working directory: use a temp one.
const cwd = mkdtempSync(join(tmpdir(), 'rein-bench-mcp-'))
const require = createRequire(import.meta.url)
const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json')
const everything = join(dirname(manifest), Object.values(require(manifest).bin)[0])
const upstreamYaml = join(cwd, 'upstream.yaml')
writeFileSync(upstreamYaml, `${'plugins:\n  - use: \'@rein/plugin-permission-guard\'\n  - use: \'@rein/plugin-timeout-policy\'\n'}`
  + `tools:\n  - use: '@rein/mcp'\n    config: { servers: { everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio] } } }\n`)

const HANDSHAKE = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
].map((message) => `${JSON.stringify(message)}\n`).join('')

/** ms from spawn to the tools/list answer (rein), or to exit (bare node). */
function once(args, serve) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } })
    let out = ''
    let err = ''
    let done = false
    const finish = () => {
      done = true
      resolve(Number(process.hrtime.bigint() - start) / 1e6)
    }
    child.stderr.on('data', (chunk) => { err += chunk })
    child.on('error', reject)
    if (!serve) {
      child.stdin.end()
      child.on('close', finish)
      return
    }
    child.stdin.write(HANDSHAKE)
    child.stdout.on('data', (chunk) => {
      out += chunk
      if (!done && out.split('\n').some((line) => line.startsWith('{') && JSON.parse(line).id === 2)) {
        finish()
        child.stdin.end()
      }
    })
    child.on('close', (code) => { if (!done) reject(new Error(`rein mcp serve exited ${code} before answering tools/list:\n${err}`)) })
  })
}

const commands = [
  { label: 'node -e "" (spawned with pipes, to exit)', args: ['-e', ''], serve: false },
  { label: 'rein mcp serve -c demo/rein.yaml (to tools/list)', args: [bin, 'mcp', 'serve', '-c', demo], serve: true },
  { label: '  + the everything MCP server behind it', args: [bin, 'mcp', 'serve', '-c', upstreamYaml], serve: true },
]

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ')
const loadBefore = load()
try {
  for (const c of commands) await once(c.args, c.serve) // warm the file cache
  const times = commands.map(() => [])
  for (let i = 0; i < runs; i++) for (const [j, c] of commands.entries()) times[j].push(await once(c.args, c.serve))
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const rows = commands.map((c, j) => [c.label, mean(times[j]).toFixed(1), median(times[j]).toFixed(1),
    (mean(times[j]) / mean(times[0])).toFixed(2), (median(times[j]) / median(times[0])).toFixed(2)])
  const head = ['cold start', 'mean ms', 'median ms', 'x node', 'x node (median)']
  const widths = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)))
  const line = (cells) => cells.map((cell, k) => (k === 0 ? cell.padEnd(widths[k]) : cell.padStart(widths[k]))).join('  ')
  console.log(`cold start of rein mcp serve, ${runs} fresh processes per row (node ${process.version}; load average ${loadBefore} before, ${load()} after)`)
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
} finally {
  rmSync(cwd, { recursive: true, force: true })
}
