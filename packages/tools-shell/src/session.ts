/**
 * Ending every process a command started. The command leads a session of its own, and every
 * process it starts stays in that session whatever process group it moves to (`set -m`, job
 * control), unless it calls `setsid` itself. `endSession` finds the session's members in
 * /proc, sends each SIGTERM, then SIGKILL after a grace (members that appear meanwhile get the
 * same), and resolves once none is alive or a bounded wait ran out, with the pids still alive.
 * A /proc scan is a snapshot, and a process that forks and exits at once slips between two
 * looks; so SIGKILL also goes to every process group seen in the session, which the kernel
 * delivers to the whole group at once, forks in flight included. A zombie counts as gone: it
 * runs no code. Linux only (/proc).
 */
import { readdirSync, readFileSync } from 'node:fs'

/** The fields of `/proc/<pid>/stat` this module reads. */
export interface Stat {
  /** One letter: R, S, D, T, Z (zombie), X (dead), ... */
  state: string
  ppid: number
  pgrp: number
  session: number
}

/** A live process of a session, with its process group. */
export interface Member { pid: number, pgrp: number }

/** How the processes of a session are found and signalled; replaced only in tests. */
export interface Processes {
  /** The live (not zombie) members of session `sid`. */
  members(sid: number): Member[]
  /** Sends `signal` to `pid` if it is still a live member of `sid`. */
  send(pid: number, sid: number, signal: NodeJS.Signals): void
  /**
   * Sends `signal` (0: none, only the check) to every process of group `pgrp` at once; false
   * when the group has no process left. Only ever given a group seen in the command's session
   * (a group never changes session), or the session leader's own group.
   */
  sendGroup(pgrp: number, signal: NodeJS.Signals | 0): boolean
}

export interface EndOptions {
  /** Wait after SIGTERM before SIGKILL. */
  graceMs: number
  /** Wait after SIGKILL for the members to be gone. */
  settleMs: number
  processes?: Processes
}

const FIRST_POLL_MS = 5
const LAST_POLL_MS = 50

/**
 * Parses a `/proc/<pid>/stat` line. The command name (field 2) is in parentheses and may
 * itself hold spaces and parentheses, so the fields are read after the last `)`.
 */
export function parseStat(text: string): Stat | undefined {
  const close = text.lastIndexOf(')')
  if (close < 0) return undefined
  const [state, ppid, pgrp, session] = text.slice(close + 2).split(' ')
  if (session === undefined) return undefined
  return { state, ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session) }
}

/** The stat of `pid`, or undefined when it is gone. */
export function statOf(pid: number): Stat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return undefined
  }
}

function live(stat: Stat | undefined): stat is Stat {
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X'
}

/** The real processes of this machine, read from /proc. */
export const procfs: Processes = {
  members(sid) {
    const found: Member[] = []
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue
      const stat = statOf(Number(name))
      if (live(stat) && stat.session === sid) found.push({ pid: Number(name), pgrp: stat.pgrp })
    }
    return found
  },
  send(pid, sid, signal) {
    // Checked again right before the signal, so a pid reused by another process is left alone.
    const stat = statOf(pid)
    if (!live(stat) || stat.session !== sid) return
    try {
      process.kill(pid, signal)
    } catch {
      // gone since the check
    }
  },
  sendGroup(pgrp, signal) {
    try {
      process.kill(-pgrp, signal)
      return true
    } catch {
      return false // ESRCH: the group is empty
    }
  },
}

/** Ends every member of session `sid`. Resolves with the pids still alive at the end (normally none). */
export async function endSession(sid: number, options: EndOptions): Promise<number[]> {
  const processes = options.processes ?? procfs
  if (!Number.isInteger(sid) || sid <= 1 || sid === statOf(process.pid)?.session) {
    throw new Error(`refusing to end session ${sid}: it is not a command's own session`)
  }
  // The leader's group outlives the leader while a process of it is left, seen or not.
  const groups = new Set([sid])
  if (processes.members(sid).length === 0 && !processes.sendGroup(sid, 0)) return []
  await signalUntil(processes, sid, groups, 'SIGTERM', Date.now() + options.graceMs)
  // Always, even when the last scan found nobody: that scan may have missed a forking process.
  return signalUntil(processes, sid, groups, 'SIGKILL', Date.now() + options.settleMs)
}

/**
 * Signals the session until a scan finds no live member or `deadline` passes; gives the
 * members of the last scan. SIGTERM goes once to each member (newcomers too); SIGKILL goes to
 * each member and to each group in `groups` (those seen so far) on every round.
 */
async function signalUntil(
  processes: Processes, sid: number, groups: Set<number>, signal: NodeJS.Signals, deadline: number,
): Promise<number[]> {
  const sent = new Set<number>()
  const again = signal === 'SIGKILL'
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(2 * wait, LAST_POLL_MS)) {
    if (again) for (const pgrp of groups) processes.sendGroup(pgrp, signal)
    const members = processes.members(sid)
    for (const { pid, pgrp } of members) {
      groups.add(pgrp)
      if (sent.has(pid) && !again) continue
      sent.add(pid)
      processes.send(pid, sid, signal)
    }
    const now = Date.now()
    if (members.length === 0 || now >= deadline) return members.map((member) => member.pid)
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, deadline - now)))
  }
}
