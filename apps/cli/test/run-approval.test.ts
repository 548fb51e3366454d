/**
 * `rein run` answering the asks of a permission-guard rule, in process: a person at the
 * terminal (a scripted `io.prompt`) answering y / s / n, end of input, Ctrl-C while asked,
 * no terminal at all, and `--approve allow|deny`. Outcomes are read from the recorded session.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SessionEntry } from '@rein/agent'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import type { Io } from '../src/io.js'
import { main } from '../src/main.js'
import { FIXTURES, project } from './helpers.js'

const REASON = 'shell commands need a person'
const config = (commands: string[]) => `
provider: { use: ${join(FIXTURES, 'approval-provider.mjs')}, config: { commands: ${JSON.stringify(commands)} } }
plugins:
  - use: '@rein/plugin-permission-guard'
    config: { rules: [{ tool: shell, action: ask, reason: ${REASON} }] }
tools:
  - use: ${join(FIXTURES, 'approval-tools.mjs')}
session: ./session.jsonl
`

/** A typed line, end of input (`undefined`), or a function given the interrupt and the call's signal. */
type Answer = string | undefined | ((interrupt: () => void, signal: AbortSignal) => Promise<string | undefined>)

interface Asked {
  code: number
  stdout: string
  stderr: string
  questions: string[]
  /** Each tool call's outcome in the session: `ok` or the error code. */
  outcomes: Record<string, string>
}

async function runAsked(commands: string[], answers: Answer[], { isTTY = true, flags = [] as string[] } = {}): Promise<Asked> {
  const dir = await project({ 'rein.yaml': config(commands) })
  let stdout = ''
  let stderr = ''
  const questions: string[] = []
  let interrupt = () => {}
  const io: Io = {
    stdout: { write: (s: string) => { stdout += s } },
    stderr: { write: (s: string) => { stderr += s } },
    cwd: dir,
    env: { NO_COLOR: '1' },
    isTTY,
    onInterrupt: (handler) => { interrupt = handler; return () => {} },
    exit: (code) => { throw new Error(`exit(${code}) called in process`) },
    prompt: async (question, signal) => {
      questions.push(question)
      const next = answers.shift()
      return typeof next === 'function' ? next(interrupt, signal) : next
    },
  }
  const code = await main(['run', ...flags, 'do it'], io)
  const entries = (await readFile(join(dir, 'session.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as SessionEntry)
  const outcomes = Object.fromEntries(entries.flatMap((e) => (e.type === 'tool/result' ? [[e.message.toolCallId, e.code ?? 'ok']] : [])))
  return { code, stdout, stderr, questions, outcomes }
}

describe('rein run: approvals at the terminal', () => {
  it('"y" runs the call; each call of the batch is asked about, with its tool, reason and arguments', async () => {
    const r = await runAsked(['ls', 'pwd'], ['y', 'yes'])
    expect(r.code, r.stderr).toBe(ExitCodes.OK)
    expect(r.questions).toEqual(['  Allow? [y] once  [s] for this session  [n] deny  [l] decide later: ', expect.any(String)])
    expect(r.stdout).toContain(`? "shell" (call b1) needs approval: ${REASON}\n    {\n      "cmd": "ls"\n    }\n`)
    expect(r.stdout).toContain('? "shell" (call b2) needs approval')
    expect(r.stdout.match(/→ allowed once/g)).toHaveLength(2)
    expect(r.stdout).toContain('b1: ran ls | b2: ran pwd')
    expect(r.outcomes).toEqual({ b1: 'ok', b2: 'ok' })
  })

  it('"s" runs the call, and its sibling of the same batch is not asked about again', async () => {
    const r = await runAsked(['ls', 'pwd'], ['s'])
    expect(r.code, r.stderr).toBe(ExitCodes.OK)
    expect(r.questions).toHaveLength(1)
    expect(r.stdout).toContain('→ allowed for this session')
    expect(r.outcomes).toEqual({ b1: 'ok', b2: 'ok' })
  })

  it('"n" denies (TOOL_DENIED, the body never runs); an answer not understood is asked again', async () => {
    const r = await runAsked(['ls'], ['maybe', 'n'])
    expect(r.code, r.stderr).toBe(ExitCodes.OK)
    expect(r.questions).toHaveLength(2)
    expect(r.stdout).toContain('please answer y, s, n or l')
    expect(r.stdout).toContain('→ denied\n')
    expect(r.stdout).toContain(`b1: Error: "shell" was denied at approval (${REASON})`)
    expect(r.outcomes).toEqual({ b1: 'TOOL_DENIED' })
  })

  it('end of input denies', async () => {
    const r = await runAsked(['ls'], [undefined])
    expect(r.stdout).toContain('→ denied (no answer: end of input)')
    expect(r.outcomes).toEqual({ b1: 'TOOL_DENIED' })
  })

  it('Ctrl-C while asked ends the run (130); the call asked about never started (ABORTED_BEFORE_DISPATCH)', async () => {
    const pressCtrlC: Answer = (interrupt, signal) => new Promise((resolve) => {
      signal.addEventListener('abort', () => resolve(undefined), { once: true })
      interrupt()
    })
    const r = await runAsked(['ls', 'pwd'], [pressCtrlC, 'y'])
    expect(r.code).toBe(ExitCodes.INTERRUPTED)
    expect(r.questions).toHaveLength(1)
    expect(r.stdout).toContain('→ not run (the run was interrupted)')
    expect(r.outcomes.b1).toBe('ABORTED_BEFORE_DISPATCH')
    expect(r.outcomes.b2).toBe('ABORTED_BEFORE_DISPATCH')
  })
})

describe('rein run: approvals without a terminal, and --approve', () => {
  it('denies at once without a terminal, and says so once per tool', async () => {
    const r = await runAsked(['ls', 'pwd'], ['y'], { isTTY: false })
    expect(r.code, r.stderr).toBe(ExitCodes.OK)
    expect(r.questions).toEqual([])
    expect(r.outcomes).toEqual({ b1: 'TOOL_DENIED', b2: 'TOOL_DENIED' })
    const notice = `rein: "shell" needs approval (${REASON}); there is no terminal to ask at, so it was denied — ` +
      'change its rule to allow, run rein in a terminal, or pass --approve allow\n'
    expect(r.stderr.split(notice)).toHaveLength(2)
  })

  it('--approve allow runs every call without asking, with one warning line', async () => {
    const r = await runAsked(['ls', 'pwd'], [], { isTTY: false, flags: ['--approve', 'allow'] })
    expect(r.code, r.stderr).toBe(ExitCodes.OK)
    expect(r.questions).toEqual([])
    expect(r.outcomes).toEqual({ b1: 'ok', b2: 'ok' })
    expect(r.stderr.match(/allowed without asking \(--approve allow\)/g)).toHaveLength(1)
  })

  it('--approve deny denies every call without asking, even on a terminal', async () => {
    const r = await runAsked(['ls', 'pwd'], ['y', 'y'], { flags: ['--approve', 'deny'] })
    expect(r.code, r.stderr).toBe(ExitCodes.OK)
    expect(r.questions).toEqual([])
    expect(r.outcomes).toEqual({ b1: 'TOOL_DENIED', b2: 'TOOL_DENIED' })
  })

  it('rejects an unknown --approve mode as a usage error', async () => {
    let stderr = ''
    const io: Io = { stdout: { write: () => {} }, stderr: { write: (s: string) => { stderr += s } }, cwd: '/', env: {}, isTTY: false }
    expect(await main(['run', '--approve', 'maybe', 'x'], io)).toBe(ExitCodes.USAGE)
    expect(stderr).toContain('rein run: --approve must be one of ask, deny, allow, not "maybe"')
  })
})
