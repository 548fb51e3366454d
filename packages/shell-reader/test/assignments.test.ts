/** `assigns`: a command run with variables set on the line, and statements of assignments only. */
import { describe, expect, it } from 'vitest'
import { parseBash } from '../src/parser.js'
import { readCommandLine, type ShellCommand } from '../src/read.js'

function commands(line: string): ShellCommand[] {
  const reading = readCommandLine(line, parseBash)
  if (!reading.ok) throw new Error(reading.reason)
  return reading.commands
}

describe('assignments', () => {
  it('marks a command with NAME=value prefixes, and keeps its words as they were', () => {
    expect(commands('FOO=1 rm x')).toEqual([{ words: ['rm', 'x'], known: true, assigns: true }])
    expect(commands("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm x' git status"))
      .toEqual([{ words: ['git', 'status'], known: true, assigns: true }])
    expect(commands("GIT_EXTERNAL_DIFF='rm x;:' git diff")).toEqual([{ words: ['git', 'diff'], known: true, assigns: true }])
    expect(commands('LD_PRELOAD=./x.so ls')).toEqual([{ words: ['ls'], known: true, assigns: true }])
    expect(commands('git status')).toEqual([{ words: ['git', 'status'], known: true, assigns: false }])
  })

  it('reads a statement of assignments only as a known command of its own, whose words are the assignments', () => {
    expect(commands('PATH=.:$PATH; git status')).toEqual([
      { words: ['PATH=.:$PATH'], known: true, assigns: true },
      { words: ['git', 'status'], known: true, assigns: false },
    ])
    expect(commands('a=1 b=$(id)')).toEqual([
      { words: ['a=1', 'b=$(id)'], known: true, assigns: true },
      { words: ['id'], known: true, assigns: false },
    ])
  })

  it('marks the command a wrapper runs with settings, and everything a command with prefixes runs', () => {
    expect(commands('env A=1 git status')).toEqual([
      { words: ['env', 'A=1', 'git', 'status'], known: true, assigns: false },
      { words: ['git', 'status'], known: true, assigns: true },
    ])
    expect(commands('sudo -- GIT_DIR=/x git status').map((c) => c.assigns)).toEqual([false, true])
    expect(commands('env -i git status').map((c) => c.assigns)).toEqual([false, false])
    expect(commands("A=1 bash -c 'git status'")).toEqual([
      { words: ['bash', '-c', 'git status'], known: true, assigns: true },
      { words: ['git', 'status'], known: true, assigns: true },
    ])
    expect(commands('A=1 sudo git status').map((c) => c.assigns)).toEqual([true, true])
  })

  it('marks declarations that set a variable, loops over a capitalised name and builtins that set one', () => {
    expect(commands('export A=1; git status').map((c) => c.assigns)).toEqual([true, false])
    expect(commands('local x; export -p; declare -f f').map((c) => c.assigns)).toEqual([true, false, false])
    expect(commands('for PATH in /tmp/x; do git status; done')).toEqual([
      { words: ['PATH=/tmp/x'], known: true, assigns: true },
      { words: ['git', 'status'], known: true, assigns: false },
    ])
    expect(commands('for f in *.ts; do wc -l "$f"; done').map((c) => c.assigns)).toEqual([false])
    expect(commands('read -r PATH; read -r line; printf -v GIT_DIR x').map((c) => c.assigns)).toEqual([true, false, true])
  })
})
