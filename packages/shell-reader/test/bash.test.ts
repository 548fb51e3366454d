/**
 * The corpus spellings marked `runs` on the real bash (5.1 or later): each deletes the file `x`
 * in a scratch folder, so each is a real way to run `rm`, and the reader must see `rm` in it, a
 * command known only at run time, or nothing it can read.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseBash } from '../src/parser.js'
import { readCommandLine } from '../src/read.js'
import { CORPUS } from '../src/corpus.js'

const BASH = '/bin/bash'

/** Whether /bin/bash is there and at least 5.1 (`wait -p`, `${x@P}`, `declare -n`). */
function modernBash(): boolean {
  if (!existsSync(BASH)) return false
  const version = execFileSync(BASH, ['-c', 'echo $((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1]))'], { encoding: 'utf8' })
  return Number(version) >= 501
}

const folder = mkdtempSync(join(tmpdir(), 'permission-guard-bash-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Whether bash, running `line` in the scratch folder, deletes the file `x` there. */
function deletesX(line: string): boolean {
  writeFileSync(join(folder, 'x'), 'precious')
  try {
    execFileSync(BASH, ['-c', line], { cwd: folder, stdio: 'ignore', timeout: 5000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder } })
  } catch {
    // A failing exit status is fine: only the file matters.
  }
  return !existsSync(join(folder, 'x'))
}

describe.skipIf(!modernBash())('the corpus on the real bash', () => {
  it.each(CORPUS.filter((s) => s.runs).map((s) => [JSON.stringify(s.line), s.line] as const))('%s runs rm, and reads so', (_, line) => {
    expect(deletesX(line)).toBe(true)
    // Read as rm, as a command known only at run time, or not read at all: each fails closed.
    const reading = readCommandLine(line, parseBash)
    expect(!reading.ok || reading.commands.some((c) => !c.known || c.words[0] === 'rm')).toBe(true)
  })
})
