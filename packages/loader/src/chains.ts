/**
 * What `rein chains` shows: for each hook, in pipeline order, the plugins on it from the
 * outermost to the innermost, as the kernel reports them (`ctx.tools.chain`). Read-only;
 * it reflects the Context at the moment it is called.
 */
import type { Context } from 'cordis'

/** The stages, in the order a call goes through them. */
export const CHAIN_NAMES = ['tools/pre-execute', 'guards', 'tools/execute', 'tools/post-execute', 'tools/result', 'tools/hand-off'] as const

export type ChainName = typeof CHAIN_NAMES[number]

/** One hook and its plugins, outermost first. */
export interface ChainView {
  hook: ChainName
  plugins: string[]
  /** What sits inside the innermost handler. */
  inner: string
}

const INNER: Record<ChainName, string> = {
  'tools/pre-execute': 'default: allow',
  'guards': 'all must pass',
  'tools/execute': 'tool body',
  'tools/post-execute': 'default: accept',
  'tools/result': 'observers, in order',
  'tools/hand-off': 'all settled, then the caller',
}

/** Each hook's onion order with the owning plugins' names. Throws when `ctx` has no kernel. */
export function describeChains(ctx: Context): ChainView[] {
  const tools = ctx.get('tools') as Context['tools'] | undefined
  if (!tools) throw new Error('this Context has no kernel (ctx.tools); plug @rein/kernel first')
  return CHAIN_NAMES.map((hook) => ({ hook, plugins: tools.chain(hook), inner: INNER[hook] }))
}

/**
 * Renders chains as text, one hook per line:
 * `tools/execute        audit > cache > retry > timeout-policy > (tool body)`.
 */
export function formatChains(chains: readonly ChainView[]): string {
  const width = Math.max(...chains.map((chain) => chain.hook.length)) + 2
  return chains
    .map(({ hook, plugins, inner }) => `${hook.padEnd(width)}${[...plugins, `(${inner})`].join(' > ')}`)
    .join('\n')
}
