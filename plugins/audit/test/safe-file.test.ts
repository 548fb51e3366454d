import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, constants, existsSync, openSync, readFileSync, renameSync, statSync, symlinkSync } from 'node:fs'
import { chmod, chown, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import { defineTool } from '@rein/kernel'
import { captureWarnings } from '@rein/testing'
import * as audit from '../src/index.js'
import { kernelContext, registerTools, tempDir } from './helpers.js'

const child = fileURLToPath(new URL('./fixtures/short-write-child.mjs', import.meta.url))
const built = fileURLToPath(new URL('../dist/src/writer.js', import.meta.url))

/** Starts a harness auditing into `file` with a `probe` tool that counts its runs; resolves the first call's result. */
async function startAuditing(file: string) {
  const ctx = await kernelContext()
  let ran = 0
  ctx.tools.register(defineTool({ name: 'probe', description: 'p', parameters: { type: 'object' }, execute: () => { ran++; return 'ran' } }))
  ctx.plugin(audit, { file })
  await ctx.start()
  const result = await ctx.tools.execute({ id: 'c1', name: 'probe', arguments: {} })
  return { result, ran }
}

/** Expects the start to have failed closed: the call settled PIPELINE_FAILED naming audit and `reason`, its tool never ran. */
function expectRefused({ result, ran }: Awaited<ReturnType<typeof startAuditing>>, reason: string) {
  expect(ran).toBe(0)
  expect(result).toMatchObject({ isError: true, error: { info: { code: 'PIPELINE_FAILED', name: 'startup' } } })
  const text = result.content.map((block) => block.type === 'text' ? block.text : '').join('')
  expect(text).toContain('plugin "audit" failed to start')
  expect(text).toContain(reason)
}

/** Runs `node args…` (under `ulimit -f kib` when given), killed after 5 s; resolves its exit code and output. */
async function runNode(args: string[], kib?: number) {
  const command = kib === undefined ? [process.execPath, ...args] : ['bash', '-c', 'ulimit -f "$1" && shift && exec "$@"', 'bash', String(kib), process.execPath, ...args]
  const proc = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
  onTestFinished(async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return
    proc.kill('SIGKILL')
    await once(proc, 'exit')
  })
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000)
  let out = ''
  proc.stdout.on('data', (chunk) => { out += chunk })
  proc.stderr.on('data', (chunk) => { out += chunk })
  const [code, signal] = await once(proc, 'close')
  clearTimeout(timer)
  return { code, signal, out }
}

describe('audit refuses an unsafe file at start (fail closed)', () => {
  it('a folder at the path', async () => {
    const file = join(await tempDir(), 'audit.jsonl')
    await mkdir(file)
    expectRefused(await startAuditing(file), `the audit file ${file} is a folder, not a regular file: give the path of a regular file`)
  })

  it('a path under a file, which cannot be made', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'blocker'), 'a file, not a folder')
    const file = join(dir, 'blocker', 'audit.jsonl')
    expectRefused(await startAuditing(file), `${join(dir, 'blocker')}`)
  })

  it('a FIFO with a reader: refused, nothing written into it', async () => {
    const file = join(await tempDir(), 'audit.fifo')
    execFileSync('mkfifo', [file])
    // A reader is there, so even a blocking open returns: the refusal comes from what the file is.
    const reader = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK)
    onTestFinished(() => closeSync(reader))
    expectRefused(await startAuditing(file), `the audit file ${file} is a FIFO (named pipe), not a regular file`)
  })

  it('a FIFO with no reader: refused at once, the process never waits for one', async () => {
    expect(existsSync(built), 'build @rein/plugin-audit first: npx -y pnpm@10 build plugins/audit').toBe(true)
    const file = join(await tempDir(), 'audit.fifo')
    execFileSync('mkfifo', [file])
    const script = `import { createAppender } from ${JSON.stringify(built)}
const appender = createAppender(process.argv[1], (m) => console.log('warned:', m))
appender.append('line'); await appender.written(); console.log('done')`
    const { code, signal, out } = await runNode(['--input-type=module', '-e', script, file])
    expect(signal).toBeNull()
    expect(code).toBe(0)
    expect(out).toContain(`warned: cannot append to the audit file ${file}: the audit file ${file} is a FIFO (named pipe)`)
    expect(out).toContain('done')
  })

  it('a file of this user that others may write (0666): refused, left as it was', async () => {
    const file = join(await tempDir(), 'audit.jsonl')
    await writeFile(file, 'theirs\n')
    await chmod(file, 0o666)
    expectRefused(await startAuditing(file), `the audit file ${file} is writable by others (mode 0666), who could forge its lines: chmod go-w it`)
    expect(await readFile(file, 'utf8')).toBe('theirs\n')
  })

  it('a file another user made: refused, left as it was', async () => {
    // As root, a file given away to nobody; as anyone else, a file root made, which cannot be opened.
    const root = process.geteuid?.() === 0
    const file = root ? join(await tempDir(), 'audit.jsonl') : '/etc/passwd'
    if (root) {
      await writeFile(file, 'theirs\n', { mode: 0o600 })
      await chown(file, 65534, 65534)
    }
    const before = await readFile(file, 'utf8')
    expectRefused(await startAuditing(file), root
      ? `the audit file ${file} is owned by uid 65534, not by this user (uid 0)`
      : `cannot open the audit file ${file} (`)
    expect(await readFile(file, 'utf8')).toBe(before)
  })

  it.each([['to a file of ours', true], ['to nowhere', false]])('a symbolic link %s: not followed, its target untouched', async (_name, exists) => {
    const dir = await tempDir()
    const victim = join(dir, 'victim.conf')
    if (exists) await writeFile(victim, 'important=1\n', { mode: 0o600 })
    const file = join(dir, 'audit.jsonl')
    symlinkSync(victim, file)
    expectRefused(await startAuditing(file), `the audit file ${file} is a symbolic link (audit never follows one), not a regular file`)
    if (exists) expect(await readFile(victim, 'utf8')).toBe('important=1\n')
    else expect(existsSync(victim)).toBe(false)
  })

  it('checks the new file after a rotation the same way: a symbolic link put there is refused with a warning', async () => {
    const dir = await tempDir()
    const file = join(dir, 'audit.jsonl')
    const victim = join(dir, 'victim.conf')
    await writeFile(victim, 'important=1\n', { mode: 0o600 })
    let clock = 0
    const warned: string[] = []
    const appender = audit.createAppender(file, (message) => warned.push(message), () => clock)
    appender.open()
    appender.append('before')
    await appender.written()
    renameSync(file, `${file}.1`)
    symlinkSync(victim, file)
    clock += 1000
    appender.append('after')
    await appender.written()
    appender.close()
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('before\n')
    expect(readFileSync(victim, 'utf8')).toBe('important=1\n')
    expect(warned).toEqual([expect.stringContaining(`the audit file ${file} is a symbolic link (audit never follows one)`)])
  })

  it('a good path still starts, and the file is opened at once', async () => {
    const file = join(await tempDir(), 'logs', 'audit.jsonl')
    const ctx = await kernelContext()
    registerTools(ctx)
    const log = captureWarnings('audit', ctx)
    onTestFinished(log.stop)
    ctx.plugin(audit, { file })
    await ctx.start()
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(await ctx.tools.execute({ id: 'a', name: 'echo', arguments: { text: 'a' } })).toMatchObject({ isError: false })
    expect(log.warnings).toEqual([])
  })
})

describe('audit when a write stops short (a file size limit, a full disk)', () => {
  it('cuts the partial line off again and warns once: the file holds whole lines only', async () => {
    expect(existsSync(built), 'build @rein/plugin-audit first: npx -y pnpm@10 build plugins/audit').toBe(true)
    const file = join(await tempDir(), 'audit.jsonl')
    // 2 KiB limit: two lines of ~900 bytes fit, the third crosses it (stored in part), the fourth fails.
    const { code, out } = await runNode([child, file, JSON.stringify([900, 900, 900, 900])], 2)
    expect(code, out).toBe(0)
    const text = await readFile(file, 'utf8')
    expect(text.endsWith('\n')).toBe(true)
    const lines = text.split('\n').filter(Boolean).map((line) => JSON.parse(line))
    expect(lines.map((line) => line.i)).toEqual([0, 1])
    const warnings = out.trim().split('\n').map((line) => JSON.parse(line).warning)
    expect(warnings).toEqual([expect.stringContaining(`cannot append to the audit file ${file}: EFBIG`)])
  })
})
