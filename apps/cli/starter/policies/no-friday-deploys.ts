/**
 * no-friday-deploys: on the days you name (Friday by default), the `bash` tool may not run a
 * command that deploys. A whole policy plugin: a name, a config schema with defaults,
 * `inject: ['tools']` (it applies once the kernel is there) and one `tools/pre-execute`
 * handler. It only ever denies, with a reason the model reads, so it may be listed anywhere.
 */
import { Schema, type Context } from 'cordis'
import type {} from '@rein/kernel' // types ctx.on('tools/...') handlers

export const name = 'no-friday-deploys'
export const inject = ['tools']

export interface Config {
  /** Days on which deploys are denied: 0 is Sunday, 5 is Friday. */
  days: number[]
  /** A command that contains any of these is a deploy. */
  words: string[]
}

export const Config: Schema<Config> = Schema.object({
  days: Schema.array(Schema.natural().max(6)).default([5]),
  words: Schema.array(String).default(['deploy', 'git push', 'kubectl apply', 'terraform apply']),
})

/** Registers the policy; `now` is a parameter so that a test can fix the day. */
export function apply(ctx: Context, config: Config, now: () => Date = () => new Date()) {
  ctx.on('tools/pre-execute', async (exec, next) => {
    const command = String(exec.arguments.command ?? '')
    const word = config.words.find((w) => command.includes(w))
    if (exec.name === 'bash' && word && config.days.includes(now().getDay())) {
      return { kind: 'deny', reason: `no deploys today ("${word}" is in the command); it can wait for Monday` }
    }
    return next()
  })
}

/** The same plugin on a fixed clock, for tests. */
export function withClock(now: () => Date) {
  return { name, inject, Config, apply: (ctx: Context, config: Config) => apply(ctx, config, now) }
}
