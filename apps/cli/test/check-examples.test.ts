/**
 * `rein check` holds every few-shot example — in the example files and inline in
 * `agent.system` — to its tool's current schema: a schema change turns it red, naming the
 * example's file and line and the field.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { project, rein } from './helpers.js'

/** A tool source registering `read_doc` with `properties` (and `required`). */
const toolModule = (properties: object, required: string[]) => `
export const name = 'docs'
export const inject = ['tools']
export function apply(ctx) {
  ctx.tools.register({
    name: 'read_doc',
    description: 'Read a document.',
    parameters: { type: 'object', properties: ${JSON.stringify(properties)}, required: ${JSON.stringify(required)} },
    execute: (args) => 'text of ' + JSON.stringify(args),
  })
}
`

const V1 = toolModule({ path: { type: 'string' }, limit: { type: 'integer' } }, ['path'])
/** The same tool after a change: `path` is now `file`, and `limit` is at most 5. */
const V2 = toolModule({ file: { type: 'string' }, limit: { type: 'integer', maximum: 5 } }, ['file'])

const REIN_YAML = [
  'tools:',
  '  - use: ./read-tool.mjs',
  'agent:',
  '  system: |',
  '    Read before you answer.',
  '    read_doc({"path": "b.md", "limit": 3})',
  'examples: [./examples.yaml]',
].join('\n')

const EXAMPLES = [
  '- tool: read_doc',
  '  arguments:',
  '    path: a.md',
  '    limit: 10',
].join('\n')

describe('rein check and the tool schemas the examples were written for', () => {
  it('passes while the examples fit, counting the inline ones', async () => {
    const dir = await project({ 'rein.yaml': REIN_YAML, 'examples.yaml': EXAMPLES, 'read-tool.mjs': V1 })
    const { code, stdout, stderr } = await rein(['check'], dir)
    expect(stderr).toBe('')
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toContain('✓ 2 example tool call(s) in 1 file(s) and agent.system match their tools\' schemas')
  })

  it('turns red when the schema changes, naming each example by file:line and the field', async () => {
    const dir = await project({ 'rein.yaml': REIN_YAML, 'examples.yaml': EXAMPLES, 'read-tool.mjs': V2 })
    const { code, stderr } = await rein(['check'], dir)
    expect(code).toBe(ExitCodes.FAILURE)
    const examples = join(dir, 'examples.yaml')
    expect(stderr.split('\n').filter((line) => line.startsWith('✗'))).toEqual([
      `✗ ${join(dir, 'rein.yaml')}:6 agent.system read_doc: missing required property "file"`,
      `✗ ${examples}:2 example[0] read_doc: missing required property "file"`,
      `✗ ${examples}:4 example[0] read_doc: /limit: must be <= 5`,
    ])
    expect(stderr).toContain('3 problem(s) in 1 example file(s) and agent.system, 2 tool call(s) checked')
  })

  it('reports the inline counts in --json', async () => {
    const dir = await project({ 'rein.yaml': REIN_YAML, 'examples.yaml': EXAMPLES, 'read-tool.mjs': V1 })
    const { code, stdout } = await rein(['check', '--json'], dir)
    expect(code).toBe(ExitCodes.OK)
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, examples: { files: 1, checked: 2, inline: 1 }, problems: [] })
  })
})
