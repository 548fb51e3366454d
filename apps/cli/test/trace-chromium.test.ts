/**
 * `rein trace` in a real browser: the page made from a real demo session loads in headless
 * Chromium without console messages (a CSP violation or a script error would log one), has
 * one bar per call, and renders to a screenshot. In CI (which installs chromium) the browser
 * must be there; elsewhere, without it, only the page as written is checked, and the test says so.
 */
import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { project, rein, requireBuild, spawnRein } from './helpers.js'

const chromium = ['chromium', 'chromium-browser'].find((bin) => spawnSync('which', [bin]).status === 0)
const required = process.env.CI === 'true'
const name = chromium
  ? 'loads a demo trace without console messages, with one bar per call, and renders a screenshot'
  : 'writes a demo trace with one bar per call (chromium is not installed: apt-get install -y chromium for the browser checks)'

/** How long one browser run may take before it is killed. */
const BROWSER_MS = 60_000
/**
 * The test's own limit: two browser runs, a demo and a trace, on a loaded machine. It is above
 * what the browser runs may take, so a slow browser fails with its own error, not a test timeout.
 */
const TEST_MS = 2 * BROWSER_MS + 60_000

/** Runs headless Chromium to its exit, on a fresh profile folder (removed after the test, like every `project()`). */
async function browse(args: string[]) {
  const profile = await project()
  const result = spawnSync(chromium!, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--hide-scrollbars', '--enable-logging=stderr', '--v=0',
    `--user-data-dir=${profile}`, ...args,
  ], { encoding: 'utf8', timeout: BROWSER_MS, maxBuffer: 64 * 1024 * 1024 })
  if (result.error) throw result.error
  return result
}

describe('rein trace in headless Chromium', () => {
  beforeAll(requireBuild)

  it(name, async () => {
    if (!chromium && required) throw new Error('chromium is missing although CI=true: .ci/run should have installed it')
    const dir = await project()
    const demo = spawnRein(['demo', '--fast', '--session', 'demo.jsonl'], dir)
    expect(await demo.exited, demo.stderr()).toBe(0)
    const traced = await rein(['trace', 'demo.jsonl', '-o', 'trace.html'], dir)
    expect(traced.code, traced.stderr).toBe(0)
    expect(traced.stdout).toBe('wrote trace.html: 12 calls in 3 batches\n')
    const page = await readFile(join(dir, 'trace.html'), 'utf8')
    expect(page.match(/<rect class="bar[ "]/g)).toHaveLength(12)
    if (!chromium) return // the page was checked as written; the browser checks below need chromium
    const url = `file://${join(dir, 'trace.html')}`

    const dom = await browse(['--dump-dom', url])
    expect(dom.status).toBe(0)
    expect(dom.stdout).toContain('<svg')
    expect(dom.stdout.match(/<rect class="bar[ "]/g)).toHaveLength(12)
    expect(dom.stderr.split('\n').filter((line) => line.includes(':CONSOLE'))).toEqual([])

    const png = join(dir, 'trace.png')
    const shot = await browse(['--window-size=1300,1000', `--screenshot=${png}`, url])
    expect(shot.status).toBe(0)
    const bytes = await readFile(png)
    expect(bytes.subarray(1, 4).toString()).toBe('PNG')
    expect(bytes.length).toBeGreaterThan(10_000)
  }, TEST_MS)
})
