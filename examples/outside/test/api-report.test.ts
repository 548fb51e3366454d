/**
 * Each publishable package's exports are its contract: the surface the code has must be the
 * one its `api-report.txt` records, so nothing is added, removed or changed without a diff a
 * reviewer sees. After a deliberate change: `node scripts/api-report.mjs` rewrites the reports.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPORT, reports } from '../../../scripts/api-report.mjs'

describe('API reports', () => {
  it('every publishable package\'s surface is the one its api-report.txt records', () => {
    const stale: string[] = []
    for (const { pkg, text } of reports()) {
      const file = join(pkg.dir, REPORT)
      const recorded = existsSync(file) ? readFileSync(file, 'utf8') : undefined
      if (recorded !== text) stale.push(`${pkg.name}: ${recorded === undefined ? 'no api-report.txt' : 'api-report.txt differs from the code'}`)
      else expect(recorded).toContain(`# ${pkg.name}: public surface`)
    }
    expect(stale, 'run `node scripts/api-report.mjs` and review the diff').toEqual([])
  }, 600_000)
})
