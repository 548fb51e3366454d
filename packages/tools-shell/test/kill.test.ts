import { statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Context } from 'cordis'
import { failure, TOOL_TIMEOUT, type ToolExec } from '@rein/kernel'
import { describe, expect, it, onTestFinished } from 'vitest'
import { codeOf, gate, gone, isAlive, sessionGone, sessionOf, shell, textOf, valueOf, type Proc } from './helpers.js'

// Ignores SIGTERM, and starts a child that ignores it too; prints once the child is forked.
const STUBBORN = "trap '' TERM; sleep 1000 & echo ready; wait"
/** Appended to a command: prints the pid `pid` (e.g. `$!`), its process group and its start time. */
const report = (pid: string) => `\necho ${pid} $(cut -d' ' -f5,22 /proc/${pid}/stat)`

/** A plugin that remembers the exec of the last call (its `meta.pid` is the session id). */
function spy() {
  const seen: { exec?: ToolExec } = {}
  const plugin = {
    name: 'spy',
    inject: ['tools'],
    apply(ctx: Context) {
      ctx.on('tools/execute', (exec, next) => {
        seen.exec = exec
        return next()
      })
    },
  }
  return { plugin, sid: () => seen.exec?.meta.pid as number }
}

/**
 * A stand-in for a timeout plugin: swaps in its own signal, which it aborts when `fire` is
 * called, and then answers TOOL_TIMEOUT itself, as DESIGN.md §4 describes.
 */
function deadline() {
  const controller = new AbortController()
  const plugin = {
    name: 'deadline',
    inject: ['tools'],
    apply(ctx: Context) {
      ctx.on('tools/execute', async (exec, next) => {
        const outer = exec.signal
        exec.signal = controller.signal
        try {
          const result = await next()
          return controller.signal.aborted ? failure(TOOL_TIMEOUT, 'tool call timed out after 1ms') : result
        } finally {
          exec.signal = outer
        }
      })
    },
  }
  return { plugin, fire: () => controller.abort() }
}

/** The process `REPORT` printed: as a `Proc`, with its process group. */
function reported(stdout: string): Proc & { pgid: number } {
  const [pid, pgid, start] = stdout.trim().split(/\s+/)
  return { pid: Number(pid), pgid: Number(pgid), start }
}

describe('ending a command', () => {
  it('kills every process of the command when the call is aborted, though they ignore SIGTERM', async () => {
    const watch = spy()
    const sh = await shell({ killGraceMs: 100 }, (ctx) => ctx.plugin(watch.plugin))
    const controller = new AbortController()
    const output = gate()
    const pending = sh.call({ command: STUBBORN }, { signal: controller.signal, onProgress: () => output.open() })
    await output.promise
    const running = sessionOf(watch.sid())
    expect(running.length).toBeGreaterThanOrEqual(2) // bash and sleep
    controller.abort()
    expect(codeOf(await pending)).toBe('ABORTED')
    expect(await gone(running)).toEqual([])
    expect(await sessionGone(watch.sid())).toEqual([])
  })

  it('honours a signal swapped in by a timeout wrapper: the processes are killed, the wrapper reports the timeout', async () => {
    const watch = spy()
    const timer = deadline()
    const sh = await shell({ killGraceMs: 100 }, (ctx) => {
      ctx.plugin(timer.plugin)
      ctx.plugin(watch.plugin)
    })
    const output = gate()
    const pending = sh.call({ command: STUBBORN }, { onProgress: () => output.open() })
    await output.promise
    const running = sessionOf(watch.sid())
    timer.fire()
    expect(codeOf(await pending)).toBe(TOOL_TIMEOUT)
    expect(await gone(running)).toEqual([])
    expect(await sessionGone(watch.sid())).toEqual([])
  })

  it('stops a command at its own time limit and keeps what it printed', async () => {
    const watch = spy()
    const sh = await shell({ timeoutMs: 1000, killGraceMs: 100 }, (ctx) => ctx.plugin(watch.plugin))
    const result = await sh.call({ command: `echo partial; ${STUBBORN}` })
    const value = valueOf(result)
    expect(value).toMatchObject({ exitCode: null, timedOut: true })
    // What it printed before the limit, however far a busy machine let it get.
    expect('partial\nready\n'.startsWith(value.stdout)).toBe(true)
    // Once "ready" is out the shell ignores SIGTERM, so only SIGKILL could end it.
    if (value.stdout.endsWith('ready\n')) expect(value.signal).toBe('SIGKILL')
    else expect(['SIGTERM', 'SIGKILL']).toContain(value.signal)
    expect(textOf(result)).toContain(`[timed out: stopped with ${value.signal}`)
    expect(await sessionGone(watch.sid())).toEqual([])
  })

  it('declares the time limit to the timeout plugin past its own, so its own fires first', async () => {
    const sh = await shell({ timeoutMs: 5000, killGraceMs: 200 })
    expect(sh.ctx.tools.get('bash')!.timeoutMs).toBe(5000 + 400 + 1000)
    const plain = await shell()
    expect(plain.ctx.tools.get('bash')!.timeoutMs).toBeUndefined()
  })
})

describe('processes a command leaves running when it exits', () => {
  for (const [how, command] of [
    ['a background job', 'sleep 1000 &' + report('$!')],
    ['a job in its own process group (set -m)', 'set -m; sleep 1000 &' + report('$!')],
    ['a nohup job', 'nohup sleep 1000 >/dev/null 2>&1 &' + report('$!')],
    ['an orphan whose parent exited', '(sleep 1000 >/dev/null 2>&1 & echo $! > orphan); pid=$(cat orphan)' + report('$pid')],
  ] as const) {
    it(`ends ${how}`, async () => {
      const watch = spy()
      const sh = await shell({ killGraceMs: 100 }, (ctx) => ctx.plugin(watch.plugin))
      const value = valueOf(await sh.call({ command }))
      expect(value.exitCode).toBe(0)
      const left = reported(value.stdout)
      expect(left.pid).toBeGreaterThan(0)
      if (how.includes('set -m')) expect(left.pgid).not.toBe(watch.sid())
      expect(value.survivors).toBeUndefined()
      expect(await gone([left])).toEqual([])
    })
  }

  it('ends a job in another process group that ignores SIGTERM, with SIGKILL', async () => {
    const watch = spy()
    const sh = await shell({ killGraceMs: 100 }, (ctx) => ctx.plugin(watch.plugin))
    // Waits until the job has set its trap and become `sleep`, so SIGTERM is surely ignored.
    const command = "set -m; (trap '' TERM; exec sleep 1000) & until [ \"$(cat /proc/$!/comm)\" = sleep ]; do :; done" + report('$!')
    const value = valueOf(await sh.call({ command }))
    const left = reported(value.stdout)
    expect(left.pgid).not.toBe(watch.sid())
    expect(value.survivors).toBeUndefined()
    expect(await gone([left])).toEqual([])
  })

  it('ends a chain of processes that each fork the next and exit at once, ignoring SIGTERM', async () => {
    const watch = spy()
    const sh = await shell({ timeoutMs: 300, killGraceMs: 100 }, (ctx) => ctx.plugin(watch.plugin))
    const beats = path.join(sh.root, 'beats')
    // Each link appends a line, starts the next in the background and exits: no pid lives long.
    const chain = "(trap '' TERM; hop() { [ -e stop ] && exit 0; echo >> beats; hop & exit 0; }; hop); sleep 5"
    onTestFinished(async () => {
      writeFileSync(path.join(sh.root, 'stop'), '') // ends a chain that got away
      expect(await sessionGone(watch.sid())).toEqual([])
    })
    const value = valueOf(await sh.call({ command: chain }))
    expect(value).toMatchObject({ timedOut: true })
    expect(value.survivors).toBeUndefined()
    const size = statSync(beats).size
    expect(size).toBeGreaterThan(0)
    // The call is over, so its session is empty: no scan finds a link, and none can write.
    for (let scan = 0; scan < 20; scan++) expect(sessionOf(watch.sid())).toEqual([])
    expect(statSync(beats).size).toBe(size)
  })

  it('cannot end a process that left the session with setsid (a known limit, see the README)', async () => {
    const sh = await shell({ killGraceMs: 100 })
    // Waits until the process leads its own session, so the escape is certain, not a race.
    const command = "setsid sleep 1000 >/dev/null 2>&1 & until [ \"$(cut -d' ' -f6 /proc/$!/stat)\" = $! ]; do :; done" + report('$!')
    const value = valueOf(await sh.call({ command }))
    const escaped = reported(value.stdout)
    onTestFinished(async () => {
      if (isAlive(escaped)) process.kill(escaped.pid, 'SIGKILL')
      expect(await gone([escaped])).toEqual([])
    })
    expect(escaped.pgid).toBe(escaped.pid)
    expect(isAlive(escaped)).toBe(true)
  })
})
