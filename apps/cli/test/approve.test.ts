/**
 * `rein approvals`, `rein approve` and `rein run --continue` on a local session file, in
 * process: a run that parks (exit 3), the requests listed, answered (and refused when the id is
 * unknown, forged, answered twice or the session missing), and the run continued to its end.
 * Outcomes are read from the recorded session.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SessionEntry } from '@rein/agent'
import { describe, expect, it } from 'vitest'
import { requestLines } from '../src/approval/pending.js'
import { ExitCodes } from '../src/exit-codes.js'
import type { Io } from '../src/io.js'
import { main } from '../src/main.js'
import { APPROVAL_REASON as REASON, approvalConfig, project, rein } from './helpers.js'

const config = approvalConfig

async function entriesOf(dir: string): Promise<SessionEntry[]> {
  return (await readFile(join(dir, 'session.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as SessionEntry)
}

/** Each tool call's outcome in the session: `ok` or its error code. */
async function outcomesOf(dir: string): Promise<Record<string, string>> {
  return Object.fromEntries((await entriesOf(dir)).flatMap((e) => (e.type === 'tool/result' ? [[e.message.toolCallId, e.code ?? 'ok']] : [])))
}

/** A run that parked both calls; the request ids by call. */
async function parked(): Promise<{ dir: string, ids: Record<string, string>, stderr: string }> {
  const dir = await project({ 'rein.yaml': config() })
  const r = await rein(['run', 'do it'], dir)
  expect(r.code, r.stderr).toBe(ExitCodes.AWAITING_APPROVAL)
  const listed = await rein(['approvals', '--json'], dir)
  expect(listed.code, listed.stderr).toBe(ExitCodes.OK)
  const { approvals } = JSON.parse(listed.stdout) as { approvals: { id: string, callId: string }[] }
  return { dir, ids: Object.fromEntries(approvals.map((a) => [a.callId, a.id])), stderr: r.stderr }
}

describe('rein run: a run that parks', () => {
  it('exits 3, runs nothing that waits, and prints each request with the rein approve line that answers it', async () => {
    const { dir, ids, stderr } = await parked()
    expect(Object.keys(ids)).toEqual(['b1', 'b2'])
    expect(stderr).toContain('rein run: 2 calls wait for approval:')
    expect(stderr).toContain(`${ids.b1}  "shell" (call b1): ${REASON}`)
    expect(stderr).toContain('arguments: {"cmd":"ls"}')
    expect(stderr).toContain(`answer: rein approve ${ids.b1}   (add --deny`)
    expect(stderr).toContain('once answered, go on with: rein run --continue\n')
    expect(await outcomesOf(dir)).toEqual({})
  })

  it('--json gives outcome awaiting-approval and the requests', async () => {
    const dir = await project({ 'rein.yaml': config() })
    const r = await rein(['run', '--json', 'do it'], dir)
    expect(r.code).toBe(ExitCodes.AWAITING_APPROVAL)
    const doc = JSON.parse(r.stdout) as { ok: boolean, outcome: string, approvals: { tool: string, arguments: unknown, reason: string }[] }
    expect(doc.ok).toBe(false)
    expect(doc.outcome).toBe('awaiting-approval')
    expect(doc.approvals.map((a) => [a.tool, a.arguments, a.reason])).toEqual([['shell', { cmd: 'ls' }, REASON], ['shell', { cmd: 'pwd' }, REASON]])
  })

  it('says a session in memory cannot be answered later', async () => {
    const dir = await project({ 'rein.yaml': config({ session: null }) })
    const r = await rein(['run', 'do it'], dir)
    expect(r.code).toBe(ExitCodes.AWAITING_APPROVAL)
    expect(r.stderr).toContain('the session is kept in memory and ends with this run, so they cannot be answered')
  })
})

describe('rein approvals', () => {
  it('lists what waits, with reason, arguments and when asked; and says so when nothing waits', async () => {
    const { dir, ids } = await parked()
    const r = await rein(['approvals'], dir)
    expect(r.code).toBe(ExitCodes.OK)
    expect(r.stdout).toContain('2 approval requests wait in session.jsonl:')
    expect(r.stdout).toContain(`${ids.b2}  "shell" (call b2): ${REASON}`)
    expect(r.stdout).toMatch(/asked \d{4}-\d\d-\d\dT/)
    await rein(['approve', ids.b1!], dir)
    await rein(['approve', ids.b2!], dir)
    const none = await rein(['approvals', '--session', 'session.jsonl'], dir)
    expect(none.stdout).toBe('no approval requests wait in session.jsonl\n')
  })

  it('a missing session file is an error naming it, and is not created', async () => {
    const dir = await project({ 'rein.yaml': config() })
    const r = await rein(['approvals', '--session', 'nope.jsonl'], dir)
    expect(r.code).toBe(ExitCodes.FAILURE)
    expect(r.stderr).toContain('rein approvals: no session file at nope.jsonl')
    expect(existsSync(join(dir, 'nope.jsonl'))).toBe(false)
    const fromConfig = await rein(['approvals'], dir)
    expect(fromConfig.stderr).toContain('no session file at session.jsonl (the "session" of the config file)')
  })

  it('without --session and without "session:" in the config is a usage error saying what to pass', async () => {
    const dir = await project({ 'rein.yaml': config({ session: null }) })
    const r = await rein(['approvals'], dir)
    expect(r.code).toBe(ExitCodes.USAGE)
    expect(r.stderr).toContain('no session named: pass --session <path>')
  })

  it('a damaged session file is refused with <file>:<line>', async () => {
    const dir = await project({ 'rein.yaml': config(), 'bad.jsonl': '{"type":"message","seq":1,"message":{"role":"user","content":"x"}}\nnot json\n{}\n' })
    const r = await rein(['approvals', '--session', 'bad.jsonl'], dir)
    expect(r.code).toBe(ExitCodes.FAILURE)
    expect(r.stderr).toMatch(/bad\.jsonl:2/)
  })
})

describe('rein approve', () => {
  it('answers, then rein run --continue runs the allowed call and refuses the denied one', async () => {
    const { dir, ids } = await parked()
    const first = await rein(['approve', ids.b1!, '--by', 'alice'], dir)
    expect(first.code, first.stderr).toBe(ExitCodes.OK)
    expect(first.stderr).toContain(`rein approve: ${ids.b1}: allow-once by alice, written to session.jsonl`)
    expect(first.stderr).toContain('the run goes on once this one is answered too:')
    const second = await rein(['approve', ids.b2!, '--deny'], dir, { USER: 'bob' })
    expect(second.code).toBe(ExitCodes.OK)
    expect(second.stderr).toContain('deny by bob')
    expect(second.stderr).toContain('nothing else waits: continue the run with rein run --continue')
    const answers = (await entriesOf(dir)).filter((e) => e.type === 'approval/answer') as unknown as { id: string, answer: string, by?: string }[]
    expect(answers.map(({ id, answer, by }) => ({ id, answer, by }))).toEqual([{ id: ids.b1, answer: 'allow-once', by: 'alice' }, { id: ids.b2, answer: 'deny', by: 'bob' }])

    const go = await rein(['run', '--continue'], dir)
    expect(go.code, go.stderr).toBe(ExitCodes.OK)
    expect(go.stdout).toContain(`b1: ran ls | b2: Error: "shell" was denied at approval (${REASON})`)
    expect(await outcomesOf(dir)).toEqual({ b1: 'ok', b2: 'TOOL_DENIED' })
  })

  it('--for-session allows the call and its rule for the session; --json says what was written', async () => {
    const { dir, ids } = await parked()
    const r = await rein(['approve', ids.b1!, '--for-session', '--json'], dir, {})
    expect(r.code).toBe(ExitCodes.OK)
    const doc = JSON.parse(r.stdout) as { ok: boolean, answer: string, by: null, pending: { id: string }[], continuation: null }
    expect(doc).toMatchObject({ ok: true, answer: 'allow-session', by: null, continuation: null })
    expect(doc.pending.map((p) => p.id)).toEqual([ids.b2])
  })

  it('refuses an unknown id and an id answered already, writing nothing', async () => {
    const { dir, ids } = await parked()
    const before = (await entriesOf(dir)).length
    const unknown = await rein(['approve', 'apr_00000000-0000-0000-0000-000000000000'], dir)
    expect(unknown.code).toBe(ExitCodes.FAILURE)
    expect(unknown.stderr).toContain('there is no approval request "apr_00000000-0000-0000-0000-000000000000" in session.jsonl')
    expect(unknown.stderr).toContain('rein approvals lists what waits')
    expect(await rein(['approve', ids.b1!], dir)).toMatchObject({ code: ExitCodes.OK })
    const twice = await rein(['approve', ids.b1!, '--deny'], dir)
    expect(twice.code).toBe(ExitCodes.FAILURE)
    expect(twice.stderr).toContain(`approval request "${ids.b1}" (call b1, tool "shell") is already answered (allow-once)`)
    expect((await entriesOf(dir)).length).toBe(before + 1)
  })

  it('refuses a forged id, a --deny with --for-session, and a missing session, as usage errors or failures that name them', async () => {
    const { dir, ids } = await parked()
    const forged = await rein(['approve', '../../etc/passwd\u001b[2J'], dir)
    expect(forged.code).toBe(ExitCodes.USAGE)
    expect(forged.stderr).toContain('is not an approval request id')
    expect(forged.stderr).not.toContain('\u001b')
    const badBy = await rein(['approve', ids.b1!, '--by', 'eve\nforged line'], dir)
    expect(badBy.code).toBe(ExitCodes.USAGE)
    expect(badBy.stderr).toContain('--by must name who answers: up to 200 characters, no control characters')
    const both = await rein(['approve', ids.b1!, '--deny', '--for-session'], dir)
    expect(both.code).toBe(ExitCodes.USAGE)
    expect(both.stderr).toContain('--deny and --for-session exclude each other')
    const missing = await rein(['approve', ids.b1!, '--session', 'other.jsonl'], dir)
    expect(missing.code).toBe(ExitCodes.FAILURE)
    expect(missing.stderr).toContain('no session file at other.jsonl')
    expect(existsSync(join(dir, 'other.jsonl'))).toBe(false)
    expect(await outcomesOf(dir)).toEqual({})
  })

  it('an id of another session is unknown in this one', async () => {
    const a = await parked()
    const b = await parked()
    const r = await rein(['approve', a.ids.b1!, '--session', join(b.dir, 'session.jsonl')], a.dir)
    expect(r.code).toBe(ExitCodes.FAILURE)
    expect(r.stderr).toContain(`there is no approval request "${a.ids.b1}"`)
  })
})

describe('rein run --continue', () => {
  it('takes no task, and a task with it is a usage error', async () => {
    const dir = await project({ 'rein.yaml': config() })
    const r = await rein(['run', '--continue', 'more'], dir)
    expect(r.code).toBe(ExitCodes.USAGE)
    expect(r.stderr).toContain('--continue takes no task')
  })

  it('on a finished session prints its answer and asks the model nothing; a missing or in-memory session is an error', async () => {
    const { dir, ids } = await parked()
    await rein(['approve', ids.b1!], dir)
    await rein(['approve', ids.b2!], dir)
    expect((await rein(['run', '--continue'], dir)).code).toBe(ExitCodes.OK)
    const before = (await entriesOf(dir)).length
    const again = await rein(['run', '--continue'], dir)
    expect(again.code).toBe(ExitCodes.OK)
    expect(again.stderr).toContain("rein run: nothing to continue: the session ends with the model's answer")
    expect(again.stdout).toBe('b1: ran ls | b2: ran pwd\n')
    expect((await entriesOf(dir)).length).toBe(before)

    const missing = await rein(['run', '--continue', '--session', 'gone.jsonl'], dir)
    expect(missing.code).toBe(ExitCodes.FAILURE)
    expect(missing.stderr).toContain('nothing to continue: no session file at gone.jsonl')
    expect(existsSync(join(dir, 'gone.jsonl'))).toBe(false)
    const memory = await project({ 'rein.yaml': config({ session: null }) })
    const none = await rein(['run', '--continue'], memory)
    expect(none.code).toBe(ExitCodes.USAGE)
    expect(none.stderr).toContain('--continue goes on with a session kept in a file')
  })

  it('with requests still unanswered parks again under the same ids (exit 3)', async () => {
    const { dir, ids } = await parked()
    await rein(['approve', ids.b1!], dir)
    const r = await rein(['run', '--continue'], dir)
    expect(r.code, r.stderr).toBe(ExitCodes.AWAITING_APPROVAL)
    expect(r.stderr).toContain('rein run: 1 call waits for approval:')
    expect(r.stderr).toContain(`${ids.b2}  "shell" (call b2)`)
    expect(await outcomesOf(dir)).toEqual({ b1: 'ok' })
  })
})

describe('rein run: "decide later" at the terminal', () => {
  /** A typed line, end of input, or a function given the interrupt and the question's signal. */
  type Answer = string | undefined | ((interrupt: () => void, signal: AbortSignal) => Promise<string | undefined>)
  async function asked(answers: Answer[], session: string | null = './session.jsonl') {
    const dir = await project({ 'rein.yaml': config({ park: false, session }) })
    let stdout = ''
    let stderr = ''
    const questions: string[] = []
    let interrupt = () => {}
    const io: Io = {
      stdout: { write: (s: string) => { stdout += s } },
      stderr: { write: (s: string) => { stderr += s } },
      cwd: dir, env: { NO_COLOR: '1' }, isTTY: true,
      onInterrupt: (handler) => { interrupt = handler; return () => {} },
      exit: (code) => { throw new Error(`exit(${code}) called in process`) },
      prompt: async (question, signal) => {
        questions.push(question)
        const next = answers.shift()
        return typeof next === 'function' ? next(interrupt, signal) : next
      },
    }
    const code = await main(['run', 'do it'], io)
    return { dir, code, stdout, stderr, questions }
  }

  it('"l" parks the call while its sibling runs; answered later, --continue runs it', async () => {
    const r = await asked(['l', 'y'])
    expect(r.code, r.stderr).toBe(ExitCodes.AWAITING_APPROVAL)
    expect(r.questions[0]).toContain('[l] decide later')
    expect(r.stdout).toContain('→ left for later')
    expect(await outcomesOf(r.dir)).toEqual({ b2: 'ok' })
    const listed = JSON.parse((await rein(['approvals', '--json'], r.dir)).stdout) as { approvals: { id: string, callId: string }[] }
    expect(listed.approvals.map((a) => a.callId)).toEqual(['b1'])
    expect((await rein(['approve', listed.approvals[0]!.id], r.dir)).code).toBe(ExitCodes.OK)
    const go = await rein(['run', '--continue'], r.dir)
    expect(go.code, go.stderr).toBe(ExitCodes.OK)
    expect(await outcomesOf(r.dir)).toEqual({ b1: 'ok', b2: 'ok' })
  })

  it('Ctrl-C after "l" ends the run (130) and still lists the parked call, which --continue runs once approved', async () => {
    const pressCtrlC: Answer = (interrupt, signal) => new Promise((resolve) => {
      signal.addEventListener('abort', () => resolve(undefined), { once: true })
      interrupt()
    })
    const r = await asked(['l', pressCtrlC])
    expect(r.code, r.stderr).toBe(ExitCodes.INTERRUPTED)
    expect(r.stdout).toContain('aborted: every started call has its result; 1 call still waits for approval; the session is valid')
    const listed = JSON.parse((await rein(['approvals', '--json'], r.dir)).stdout) as { approvals: { id: string, callId: string }[] }
    expect(listed.approvals.map((a) => a.callId)).toEqual(['b1'])
    expect(r.stderr).toContain('rein run: 1 call waits for approval:')
    expect(r.stderr).toContain(`${listed.approvals[0]!.id}  "shell" (call b1)`)
    expect(r.stderr).toContain('once answered, go on with: rein run --continue')
    expect(await outcomesOf(r.dir)).toEqual({ b2: 'ABORTED_BEFORE_DISPATCH' })
    expect((await rein(['approve', listed.approvals[0]!.id], r.dir)).code).toBe(ExitCodes.OK)
    const go = await rein(['run', '--continue'], r.dir)
    expect(go.code, go.stderr).toBe(ExitCodes.OK)
    expect(await outcomesOf(r.dir)).toEqual({ b1: 'ok', b2: 'ABORTED_BEFORE_DISPATCH' })
  })

  it('is not offered when the session is kept in memory ("l" is not understood there)', async () => {
    const r = await asked(['l', 'n', 'n'], null)
    expect(r.questions[0]).toBe('  Allow? [y] once  [s] for this session  [n] deny: ')
    expect(r.stdout).toContain('please answer y, s or n')
    expect(r.code).toBe(ExitCodes.OK)
  })
})

describe('what waits, as rein approve / rein approvals / rein run print it: the session file cannot drive the terminal', () => {
  const hostile = '\x1b[8m\x9b2J\u202e'
  const shown = '\\x1b[8m\\x9b2J\\u202e'

  it('escapes ESC, C1 and bidi controls in the id, the call, the reason and the arguments, and quotes the suggested command', () => {
    const lines = requestLines([{
      id: `apr_1;touch x;${hostile}`, callId: `c1${hostile}\n  apr_2  "bash"`, tool: `bash${hostile}`,
      arguments: { cmd: `ls ${hostile}` }, reason: `why ${hostile}`,
    } as never], ['--session', 'my session.jsonl'], 200)
    const text = lines.join('\n')
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    expect(lines[0]).toBe(`apr_1;touch x;${shown}  "bash\\u001b[8m\\x9b2J\\u202e" (call c1${shown}\\x0a  apr_2  "bash"): why ${shown}`)
    expect(lines[1]).toBe(`    arguments: {"cmd":"ls \\u001b[8m\\x9b2J\\u202e"}`)
    expect(lines[2]).toBe(`    answer: rein approve 'apr_1;touch x;${shown}' --session 'my session.jsonl'   (add --deny to refuse, --for-session to allow it for the session)`)
  })

  it('quotes an id that would run a command when the suggested line is pasted', () => {
    const [, , answer] = requestLines([{ id: 'apr_1;touch x;', callId: 'c1', tool: 'bash', arguments: {} } as never], ['--session', 's.jsonl'])
    expect(answer).toBe("    answer: rein approve 'apr_1;touch x;' --session s.jsonl   (add --deny to refuse, --for-session to allow it for the session)")
  })
})
