import { join } from 'node:path'
import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { checkExamples, loadExamples, loadHarness } from '../src/index.js'
import { fixture, project } from './helpers.js'

async function harnessWithExamples(files: Record<string, string>) {
  const dir = await project(files)
  const examples = Object.keys(files).map((name) => `  - ${name}`)
  await writeFile(join(dir, 'rein.yaml'), ['tools:', `  - use: ${fixture(dir, 'echo-tool.ts')}`, 'examples:', ...examples].join('\n'))
  return { dir, harness: await loadHarness(join(dir, 'rein.yaml')) }
}

const FEW_SHOT = [
  '# tool calls the model is shown as examples',
  '- tool: echo',
  '  arguments: { text: hello }',
  '- role: user',
  '  content: say it twice',
  '- role: assistant',
  '  content: Sure.',
  '  toolCalls:',
  '    - id: c1',
  '      name: echo',
  '      arguments: \'{"text": "a", "times": 2}\'',
  '    - id: c2',
  '      name: echo',
  '      arguments:',
  '        text: b',
  '        times: twice',
  '- tool: echo',
  '  arguments: { times: 1 }',
  '- tool: ehco',
  '  arguments: { text: x }',
  '- tool: echo',
  '  arguments: { text: "${c1.result}", $depends_on: [c1] }',
].join('\n')

describe('checkExamples', () => {
  it('validates every example against its tool schema, with file, line, example and tool', async () => {
    const { dir, harness } = await harnessWithExamples({ 'examples/few-shot.yaml': FEW_SHOT })
    const report = await checkExamples(harness)
    const file = join(dir, 'examples/few-shot.yaml')
    expect(report.checked).toBe(6)
    expect(report.problems.map((p) => p.message)).toEqual([
      `${file}:16 example[2].toolCalls[1] echo: /times: must be integer`,
      `${file}:18 example[3] echo: missing required property "text"`,
      `${file}:20 example[4] ehco: unknown tool; the harness has echo`,
    ])
    await harness.dispose()
  })

  it('reads JSON files, and reports an unparseable file or arguments as problems', async () => {
    const { dir, harness } = await harnessWithExamples({
      'a.json': JSON.stringify([{ tool: 'echo', arguments: '{"text": ' }]),
      'b.yaml': '- tool: echo\n  arguments: { text: [\n',
    })
    const { problems } = await checkExamples(harness)
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(new RegExp(`^${join(dir, 'a.json')}:1 example\\[0\\] echo: arguments are not valid JSON: `)),
      `${join(dir, 'b.yaml')}:2: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ] (column 22)`,
    ])
    await harness.dispose()
  })

  it('loads examples without checking them', async () => {
    const { harness } = await harnessWithExamples({ 'x.yaml': FEW_SHOT })
    const { examples } = await loadExamples(harness)
    expect(examples.map((e) => `${e.label} ${e.tool}`)).toEqual([
      'example[0] echo', 'example[2].toolCalls[0] echo', 'example[2].toolCalls[1] echo', 'example[3] echo', 'example[4] ehco', 'example[5] echo',
    ])
    await harness.dispose()
  })

  it('finds the examples written inline in agent.system and names their config line and field', async () => {
    const dir = await project({})
    const file = join(dir, 'rein.yaml')
    await writeFile(file, [
      'tools:',
      `  - use: ${fixture(dir, 'echo-tool.ts')}`,
      'agent:',
      '  maxTurns: 3',
      '  system: |',
      '    Echo what you are asked.',
      '    echo({"text": "fine"})',
      '    echo({"text": "twice", "times": "2"})',
      '    echo({text: unquoted})',
      '    ```json',
      '    { "tool": "echo",',
      '      "arguments": { "times": 1 } }',
      '    ```',
      '    Say echo({"text": "in a sentence"}) only in prose.',
    ].join('\n'))
    const harness = await loadHarness(file)
    const report = await checkExamples(harness)
    expect(report.checked).toBe(4)
    expect(report.inline).toBe(4)
    expect(report.problems.map((p) => p.message)).toEqual([
      `${file}:8 agent.system echo: /times: must be integer`,
      expect.stringMatching(new RegExp(`^${file}:9 agent\\.system echo: arguments are not valid JSON: `)),
      `${file}:11 agent.system echo: missing required property "text"`,
    ])
    const { examples } = await loadExamples(harness)
    expect(examples.map((e) => `${e.line} ${e.label} ${e.tool}`)).toEqual(['7 agent.system echo', '8 agent.system echo', '9 agent.system echo', '11 agent.system echo'])
    await harness.dispose()
  })

  it('places an inline example it cannot find in the file at the line of agent.system', async () => {
    const dir = await project({})
    const file = join(dir, 'rein.yaml')
    await writeFile(file, `tools:\n  - use: ${fixture(dir, 'echo-tool.ts')}\nagent:\n  system: "Echo.\\necho({\\"times\\": 1})"\n`)
    const harness = await loadHarness(file)
    expect((await checkExamples(harness)).problems.map((p) => p.message)).toEqual([`${file}:4 agent.system echo: missing required property "text"`])
    await harness.dispose()
  })
})

