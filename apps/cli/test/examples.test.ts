/** The repository's own example harness (`examples/rein.yaml`) stays loadable and checkable. */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { CLI_ROOT, rein } from './helpers.js'

const EXAMPLES = join(CLI_ROOT, '..', '..', 'examples')
const env = { DEEPSEEK_API_KEY: 'sk-not-a-real-key' }

describe('examples/rein.yaml', () => {
  it('passes rein check: every plugin config and few-shot example is valid', async () => {
    const { code, stdout } = await rein(['check', '-c', 'rein.yaml'], EXAMPLES, env)
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toContain('7 plugin(s), 2 tool source(s)')
    expect(stdout).toContain('4 example tool call(s) in 1 file(s) match')
  })

  it('loads the custom TypeScript policy inside the standard stack, in file order (no key needed)', async () => {
    const { code, stdout } = await rein(['chains', '-c', 'rein.yaml'], EXAMPLES, {})
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toContain('tools/pre-execute   permission-guard > working-hours > (default: allow)')
    expect(stdout).toContain('tools/execute       cache > retry > timeout-policy > (tool body)')
  })
})
