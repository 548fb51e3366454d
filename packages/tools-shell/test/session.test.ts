import { spawn } from 'node:child_process'
import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { endSession, parseStat, procfs, statOf, type Processes } from '../src/session.js'
import { gate, gone, sessionOf } from './helpers.js'

/** Starts `file` as the leader of a new session; resolves once it printed its first line. */
async function leader(file: string, args: string[]) {
  const child = spawn(file, args, { detached: true, stdio: ['ignore', 'pipe', 'ignore'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  onTestFinished(async () => {
    for (const proc of sessionOf(child.pid!)) process.kill(proc.pid, 'SIGKILL')
    await exited
  })
  const ready = gate()
  child.stdout.once('data', () => ready.open())
  await ready.promise
  return { sid: child.pid!, exited }
}

describe('parseStat', () => {
  it('reads the fields after the last ")", whatever the command name holds', () => {
    expect(parseStat('4242 (a) b (c) S 17 4240 4240 0 -1 4194560 99')).toEqual({ state: 'S', ppid: 17, pgrp: 4240, session: 4240 })
    expect(parseStat('7 (x) Z 1 7 5 0')).toEqual({ state: 'Z', ppid: 1, pgrp: 7, session: 5 })
    expect(parseStat('garbage')).toBeUndefined()
  })
})

describe('endSession', () => {
  it('ends members in other process groups, ignoring SIGTERM, with a name full of ") ("', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rein-session-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const odd = path.join(dir, 'sl) 1 2 (p')
    await copyFile('/bin/sleep', odd)
    // bash leads the session; with job control each job gets a process group of its own. It
    // says "ready" once both jobs run their programs (so the second surely ignores SIGTERM).
    const script = `set -m; trap '' TERM; '${odd}' 1000 & a=$!; (trap '' TERM; exec sleep 1000) & b=$!
      until [ "$(cat /proc/$a/comm)" = 'sl) 1 2 (p' ] && [ "$(cat /proc/$b/comm)" = sleep ]; do :; done; echo ready; wait`
    const { sid } = await leader('/bin/bash', ['-c', script])
    const members = sessionOf(sid)
    expect(members.length).toBe(3)
    expect(new Set(members.map((proc) => statOf(proc.pid)?.pgrp)).size).toBe(3)
    expect(procfs.members(sid).map((member) => member.pid).sort((a, b) => a - b)).toEqual(members.map((proc) => proc.pid).sort((a, b) => a - b))
    expect(await endSession(sid, { graceMs: 100, settleMs: 5000 })).toEqual([])
    expect(await gone(members)).toEqual([])
  })

  it('returns at once when the session is already empty', async () => {
    const { sid, exited } = await leader('/bin/sh', ['-c', 'echo ready'])
    await exited
    expect(await endSession(sid, { graceMs: 60_000, settleMs: 60_000 })).toEqual([])
  })

  it('refuses its own session and pid 1', async () => {
    const own = statOf(process.pid)!.session
    await expect(endSession(own, { graceMs: 0, settleMs: 0 })).rejects.toThrow(/refusing to end session/)
    await expect(endSession(1, { graceMs: 0, settleMs: 0 })).rejects.toThrow(/refusing/)
  })

  it('signals newcomers too, SIGKILL after the grace to members and their groups, and names what outlives the wait', async () => {
    const sent: string[] = []
    let polls = 0
    // 101 (group 7) never dies; 102 (group 8) appears on the second look and dies of SIGTERM.
    const fake: Processes = {
      members: () => {
        polls++
        const dead102 = sent.includes('102 SIGTERM')
        return polls >= 2 && !dead102 ? [{ pid: 101, pgrp: 7 }, { pid: 102, pgrp: 8 }] : [{ pid: 101, pgrp: 7 }]
      },
      send: (pid, _sid, signal) => { sent.push(`${pid} ${signal}`) },
      sendGroup: (pgrp, signal) => {
        if (signal !== 0) sent.push(`group ${pgrp} ${signal}`)
        return true
      },
    }
    const sid = 999_999_999
    expect(await endSession(sid, { graceMs: 30, settleMs: 30, processes: fake })).toEqual([101])
    expect(sent.slice(0, 2)).toEqual(['101 SIGTERM', '102 SIGTERM'])
    expect(sent.filter((line) => line.endsWith('SIGTERM'))).toHaveLength(2)
    expect(new Set(sent.slice(2))).toEqual(new Set([`group ${sid} SIGKILL`, 'group 7 SIGKILL', 'group 8 SIGKILL', '101 SIGKILL']))
  })

  it('kills the leader\'s group though no scan ever catches one of its processes', async () => {
    const sent: string[] = []
    // A chain that forks and exits faster than a scan: never listed, its group alive until killed.
    const fake: Processes = {
      members: () => [],
      send: (pid, _sid, signal) => { sent.push(`${pid} ${signal}`) },
      sendGroup: (pgrp, signal) => {
        if (signal !== 0) sent.push(`group ${pgrp} ${signal}`)
        return !sent.includes(`group ${pgrp} SIGKILL`)
      },
    }
    const sid = 999_999_999
    expect(await endSession(sid, { graceMs: 30, settleMs: 30, processes: fake })).toEqual([])
    expect(sent).toEqual([`group ${sid} SIGKILL`])
  })
})
