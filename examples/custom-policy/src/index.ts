/**
 * working-hours: denies writing tools outside working hours. The template to copy for a
 * custom policy: a name, a Config schema with defaults, `inject: ['tools']`, and one hook.
 * Hooks `tools/pre-execute`; it only ever denies, so list it anywhere before the body runs.
 */
import { Schema, type Context } from 'cordis'

export const name = 'working-hours'
export const inject = ['tools']

export interface Config {
  /** Tools this policy applies to. */
  tools: string[]
  /** First allowed hour (0-23), local time. */
  from: number
  /** First hour no longer allowed (1-24). */
  to: number
}

export const Config: Schema<Config> = Schema.object({
  tools: Schema.array(String).default(['write_file', 'edit_file', 'bash']),
  from: Schema.natural().max(23).default(9),
  to: Schema.natural().max(24).default(18),
})

/** Registers the policy; `now` is injectable so tests need no real clock. */
export function apply(ctx: Context, config: Config, now: () => Date = () => new Date()) {
  ctx.on('tools/pre-execute', (exec, next) => {
    const hour = now().getHours()
    if (config.tools.includes(exec.name) && (hour < config.from || hour >= config.to)) {
      return { kind: 'deny', reason: `${exec.name} is only allowed from ${config.from}:00 to ${config.to}:00` }
    }
    return next()
  })
}

/** The same policy with a fixed clock, for tests and demos. */
export function withClock(now: () => Date) {
  return { name, inject, Config, apply: (ctx: Context, config: Config) => apply(ctx, config, now) }
}
