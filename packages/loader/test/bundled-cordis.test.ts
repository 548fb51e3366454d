/**
 * rein's built packages run on the cordis bundled into `@rein/kernel/cordis` (`scripts/bundle.mjs`),
 * beside any `cordis` a user's program imports itself. What must hold between the two: one
 * reggol `Logger` (its targets and levels set through either reach both), and a Context made by
 * the user's cordis runs rein's kernel. The spawned fixture imports the built packages: run
 * `npx -y pnpm@10 build` first.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from './helpers.js'

describe('the bundled cordis beside the user\'s', () => {
  it('shares the Logger and runs the kernel on the user\'s Context', () => {
    if (!existsSync(new URL('../../kernel/dist/src/cordis.bundle.js', import.meta.url))) throw new Error('packages/kernel is not built: run npx -y pnpm@10 build first')
    const run = spawnSync(process.execPath, [join(FIXTURES, 'user-cordis.mjs')], { encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { sameLogger: boolean, seen: string[], answer: string }
    expect(out.sameLogger).toBe(true)
    expect(out.seen).toContain('loud: from the harness')
    expect(out.answer).toBe('from the user\'s Context')
  })

  it('keeps cordis\' function names without setting each again as its closures are made (scripts/bundle.mjs, "names as they are")', () => {
    const run = spawnSync(process.execPath, [join(FIXTURES, 'cordis-names.mjs')], { encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { named: number, classes: string[] }
    expect(out.classes).toEqual(['Context', 'Service', 'EffectScope', 'Lifecycle', 'Registry'])
    // With cordis' own helper: ~3,500 (a name set on every proxy trap made); rewritten: ~40 (classes esbuild renamed, and the like).
    expect(out.named).toBeLessThan(200)
  })
})
