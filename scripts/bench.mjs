// `pnpm bench`: runs every package benchmark in turn (each prints its own table of figures
// measured side by side in one run). A missing benchmark file is skipped.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const benches = [
  'packages/kernel/bench/pipeline.mjs',
  'packages/agent/bench/makespan.mjs',
  'packages/agent/bench/memory.mjs',
  'packages/agent/bench/session.mjs',
  'packages/session-postgres/bench/session.mjs',
  'packages/queue/bench/fleet.mjs',
  'examples/standard-stack/bench/forced-gc.mjs',
  'examples/standard-stack/bench/durable.mjs',
  'examples/standard-stack/bench/per-plugin.mjs',
  'plugins/audit/bench/append.mjs',
  'packages/tool-run-code/bench/startup.mjs',
  'plugins/otel/bench/overhead.mjs',
  'apps/cli/bench/startup.mjs',
  'apps/cli/bench/mcp-serve.mjs',
  'bench/effects/effects.mjs',
]
let failed = 0
for (const file of benches) {
  if (!existsSync(file)) continue
  const { status } = spawnSync(process.execPath, ['--expose-gc', file], { stdio: 'inherit' })
  if (status !== 0) failed++
}
process.exit(failed ? 1 : 0)
