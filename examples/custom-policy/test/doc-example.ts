// The first example of docs/writing-a-plugin.md, verbatim (test/doc-example.test.ts keeps the
// two the same): `tsc -b` type-checks it here, and the test runs it.
import { Schema, type Context } from 'cordis'
import type {} from '@rein/kernel'            // types the handlers of ctx.on('tools/...')

export const name = 'working-hours'
export const inject = ['tools']
export interface Config { from: number, to: number }
export const Config: Schema<Config> = Schema.object({
  from: Schema.natural().max(23).default(9),
  to: Schema.natural().max(24).default(18),
})

export function apply(ctx: Context, config: Config, now: () => Date = () => new Date()) {
  ctx.on('tools/pre-execute', (exec, next) => {
    const hour = now().getHours()
    if (exec.name === 'write_file' && (hour < config.from || hour >= config.to)) {
      return { kind: 'deny', reason: `writes are allowed from ${config.from}:00 to ${config.to}:00` }
    }
    return next()
  })
}

/** The same plugin on a fixed clock, for tests. */
export const withClock = (now: () => Date) => ({ name, inject, Config, apply: (ctx: Context, config: Config) => apply(ctx, config, now) })
