import type { Context } from 'cordis'
import { failure, TOOL_TIMEOUT, type ToolExec } from '@rein/kernel'
import { describe, expect, it } from 'vitest'
import { alive, codeOf, gate, liveMembers, shell, textOf, valueOf } from './helpers.js'

// Ignores SIGTERM, and starts a child that ignores it too; prints once the child is forked.
const STUBBORN = "trap '' TERM; sleep 30 & echo ready; wait"

/** A plugin that remembers the exec of the last call (its `meta.pid` is the process group). */
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
  return { plugin, pid: () => seen.exec?.meta.pid as number }
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

describe('ending a command', () => {
  it('kills the whole process group when the call is aborted, though it ignores SIGTERM', async () => {
    const watch = spy()
    const sh = await shell({ killGraceMs: 100 }, (ctx) => ctx.plugin(watch.plugin))
    const controller = new AbortController()
    const output = gate()
    const pending = sh.call({ command: STUBBORN }, { signal: controller.signal, onProgress: () => output.open() })
    await output.promise
    expect(liveMembers(watch.pid()).length).toBeGreaterThanOrEqual(2) // bash and sleep
    controller.abort()
    const result = await pending
    expect(codeOf(result)).toBe('ABORTED')
    expect(liveMembers(watch.pid())).toEqual([])
  })

  it('honours a signal swapped in by a timeout wrapper: the group is killed, the wrapper reports the timeout', async () => {
    const watch = spy()
    const timer = deadline()
    const sh = await shell({ killGraceMs: 100 }, (ctx) => {
      ctx.plugin(timer.plugin)
      ctx.plugin(watch.plugin)
    })
    const output = gate()
    const pending = sh.call({ command: STUBBORN }, { onProgress: () => output.open() })
    await output.promise
    timer.fire()
    const result = await pending
    expect(codeOf(result)).toBe(TOOL_TIMEOUT)
    expect(liveMembers(watch.pid())).toEqual([])
  })

  it('stops a command at its own time limit and keeps what it printed', async () => {
    const watch = spy()
    const sh = await shell({ timeoutMs: 200, killGraceMs: 100 }, (ctx) => ctx.plugin(watch.plugin))
    const result = await sh.call({ command: `echo partial; ${STUBBORN}` })
    expect(valueOf(result)).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: true, stdout: 'partial\nready\n' })
    expect(textOf(result)).toContain('[timed out: stopped with SIGKILL')
    expect(liveMembers(watch.pid())).toEqual([])
  })

  it('ends processes a command leaves running in the background', async () => {
    const sh = await shell({ killGraceMs: 100 })
    const value = valueOf(await sh.call({ command: 'sleep 30 & echo $!' }))
    expect(value.exitCode).toBe(0)
    const child = Number(value.stdout.trim())
    expect(child).toBeGreaterThan(0)
    expect(alive(child)).toBe(false)
  })

  it('declares the time limit to the timeout plugin past its own, so its own fires first', async () => {
    const sh = await shell({ timeoutMs: 5000, killGraceMs: 200 })
    expect(sh.ctx.tools.get('bash')!.timeoutMs).toBe(5000 + 400 + 1000)
    const plain = await shell()
    expect(plain.ctx.tools.get('bash')!.timeoutMs).toBeUndefined()
  })
})
