/**
 * Who answers a run's approvals (`rein run --approve`): `ask` asks at the terminal, or, with
 * no terminal to ask at, denies and says once per tool how to let it run; `allow` allows every
 * call once, with one warning line; `deny` denies without asking. Provided on the harness
 * Context as `approvalPrompt`, for as long as the returned function is not called.
 */
import type { Context } from 'cordis'
import { println, type Io } from '../io.js'
import { createStyle, wantsColor } from '../progress/style.js'
import type { ProgressView } from '../progress/view.js'
import type { ApprovalAnswer, ApprovalPrompt, ApprovalRequest, ApproveMode } from './contract.js'
import { terminalAsker } from './terminal.js'

/** Provides `prompt` as the `approvalPrompt` service of `ctx`; returns the function that removes it. */
export function provideApprovalPrompt(ctx: Context, prompt: ApprovalPrompt): () => void {
  return ctx.set('approvalPrompt', prompt)
}

/**
 * The approval prompt for `mode`. Notices go to `io.stderr`, with the view paused around them.
 * `canPark`: the session is kept in a file, so the terminal may offer "decide later".
 */
export function approvalPrompt(mode: ApproveMode, io: Io, view: ProgressView, { canPark = false }: { canPark?: boolean } = {}): ApprovalPrompt {
  switch (mode) {
    case 'deny':
      return { ask: async () => 'deny' as const }
    case 'allow':
      return noticed(io, view, 'allow-once', firstOnly(), (request) =>
        `rein: ${needs(request)}; allowed without asking (--approve allow), as is every later call that needs approval`)
    case 'ask':
      if (io.isTTY && io.prompt) {
        return terminalAsker({ prompt: io.prompt, out: io.stdout, view, style: createStyle(wantsColor(io.isTTY, io.env)), canPark })
      }
      return noticed(io, view, 'deny', firstPerTool(), (request) =>
        `rein: ${needs(request)}; there is no terminal to ask at, so it was denied — ` +
        'change its rule to allow, run rein in a terminal, or pass --approve allow')
  }
}

/** Always `answer`; prints `notice(request)` whenever `shouldTell(request)` says so. */
function noticed(io: Io, view: ProgressView, answer: ApprovalAnswer, shouldTell: (request: ApprovalRequest) => boolean,
  notice: (request: ApprovalRequest) => string): ApprovalPrompt {
  return {
    async ask(request) {
      if (shouldTell(request)) {
        view.pause()
        println(io.stderr, notice(request))
        view.resume()
      }
      return answer
    },
  }
}

/** True for the first request only. */
function firstOnly(): () => boolean {
  let told = false
  return () => !told && (told = true)
}

/** True for the first request of each tool. */
function firstPerTool(): (request: ApprovalRequest) => boolean {
  const seen = new Set<string>()
  return ({ exec }) => !seen.has(exec.name) && Boolean(seen.add(exec.name))
}

/** `"bash" needs approval (reason)`. */
function needs({ exec, reason }: ApprovalRequest): string {
  return `"${exec.name}" needs approval${reason ? ` (${reason})` : ''}`
}
