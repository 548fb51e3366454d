/**
 * confirm-deletes: a call of a tool whose name starts with `delete_` is not decided here but
 * asked about (`ask`). Who answers is the approval service, `ctx.approval`: permission-guard
 * provides one (and asks the host's `ctx.approvalPrompt`: `rein run` asks at the terminal);
 * with no approval service loaded, an ask is a deny. Hooks `tools/pre-execute`; every other
 * call goes on untouched.
 */
import type { Context } from 'cordis'
import type { PreToolDecision } from '@rein/kernel'

export const name = 'confirm-deletes'
export const inject = ['tools']

export function apply(ctx: Context) {
  ctx.on('tools/pre-execute', (exec, next) => exec.name.startsWith('delete_')
    ? Promise.resolve<PreToolDecision>({ kind: 'ask', reason: `${exec.name} cannot be undone` })
    : next())
}
