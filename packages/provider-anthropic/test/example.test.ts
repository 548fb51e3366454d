/**
 * `examples/anthropic.rein.yaml` passes `rein check` as shipped when ANTHROPIC_API_KEY is set
 * (the provider, six plugins and two tool sources load, every config valid), and names the
 * variable when it is not. The CLI is imported by name at run time, where vitest resolves
 * workspace packages to their sources; it is not a declared dependency, since the CLI sits on
 * the loader, which depends on this package, and a declared one would make a cycle.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const EXAMPLE = fileURLToPath(new URL('../../../examples/anthropic.rein.yaml', import.meta.url))
const CLI = '@rein/cli'

type Main = (argv: string[], io: unknown) => Promise<number>

/** Runs `rein check -c <example>` in process with `env`; returns the exit code and what was printed. */
async function check(env: Record<string, string | undefined>) {
  const { main } = await import(/* @vite-ignore */ CLI) as { main: Main }
  let stdout = ''
  let stderr = ''
  const io = {
    stdout: { write: (chunk: string) => { stdout += chunk } },
    stderr: { write: (chunk: string) => { stderr += chunk } },
    cwd: process.cwd(),
    env,
    isTTY: false,
    onInterrupt: () => () => {},
    exit: (code: number) => { throw new Error(`the command tried to exit with ${code}`) },
  }
  const code = await main(['check', '-c', EXAMPLE], io)
  return { code, stdout, stderr }
}

describe('rein check on examples/anthropic.rein.yaml', () => {
  it('accepts it as shipped when ANTHROPIC_API_KEY is set', async () => {
    const { code, stdout, stderr } = await check({ ...process.env, ANTHROPIC_API_KEY: 'sk-ant-not-a-real-key' })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain('anthropic.rein.yaml: a provider, 6 plugin(s), 2 tool source(s) (8 tools), all configs valid')
    expect(stdout).not.toContain('sk-ant-not-a-real-key')
  })

  it('fails without the key, naming the variable', async () => {
    const env = { ...process.env }
    delete env.ANTHROPIC_API_KEY
    const { code, stderr } = await check(env)
    expect(code).toBe(1)
    expect(stderr).toMatch(/anthropic\.rein\.yaml:\d+ provider \(@rein\/provider-anthropic\): environment variable ANTHROPIC_API_KEY is not set/)
  })
})
