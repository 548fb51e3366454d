import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { scriptedModel, toolOutputs } from './model.js'

const here = dirname(fileURLToPath(import.meta.url))
const app = readFileSync(join(here, 'fixtures/readme-app.ts'), 'utf8')
const readme = readFileSync(join(here, '../README.md'), 'utf8')

const home = process.cwd()
const dir = mkdtempSync(join(tmpdir(), 'rein-ai-sdk-readme-'))
beforeAll(() => {
  writeFileSync(join(dir, 'notes.txt'), 'buy milk\n')
  process.chdir(dir)
})
afterAll(() => {
  process.chdir(home)
  rmSync(dir, { recursive: true, force: true })
})

it('the README shows the example app exactly as this test runs it', () => {
  const shown = app.replace("from '../../src/index.js'", "from '@rein/ai-sdk'")
  expect(readme).toContain(`\`\`\`ts\n${shown}\`\`\``)
  // What rein adds to a plain generateText app (its `ai` import and its function): under ten lines.
  const plainApp = [/from 'ai'$/, /^export async function ask/, /^  const \{ text \} = await generateText/, /^  return text$/, /^\}$/]
  const added = shown.split('\n').filter((line) => line.trim() !== '' && !plainApp.some((pattern) => pattern.test(line)))
  expect(added).toHaveLength(8)
})

it('the example app reads, is refused a write, and audits both', async () => {
  const { ask, harness } = await import('./fixtures/readme-app.js')
  const model = scriptedModel([[
    { id: 'r1', name: 'read_file', input: { path: 'notes.txt' } },
    { id: 'w1', name: 'write_file', input: { path: 'notes.txt', content: '' } },
  ]])
  try {
    expect(await ask(model, 'what is in my notes?')).toBe('done')
  } finally {
    await harness.dispose()
  }
  const outputs = toolOutputs(model.doGenerateCalls[1].prompt)
  expect(outputs.r1).toContain('buy milk')
  expect(outputs.w1).toBe('Error: this app only reads')
  expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('buy milk\n')
  const lines = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))
  // One line per call, as each finishes (the denied write may finish first).
  expect(lines.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
    expect.objectContaining({ id: 'r1', name: 'read_file', isError: false }),
    expect.objectContaining({ id: 'w1', name: 'write_file', isError: true, code: 'TOOL_DENIED' }),
  ])
}, 60_000)
