/** The command line itself: help for every command, usage errors exit 2 with a reason. */
import { describe, expect, it } from 'vitest'
import { ExitCodes } from '../src/exit-codes.js'
import { COMMANDS } from '../src/main.js'
import { rein } from './helpers.js'

describe('rein', () => {
  it('lists every command and the exit codes in --help', async () => {
    const { code, stdout } = await rein(['--help'])
    expect(code).toBe(ExitCodes.OK)
    for (const name of ['demo', 'init', 'run', 'check', 'chains', 'trace']) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'))
    expect(stdout).toContain('130  interrupted')
  })

  it.each(COMMANDS.map((c) => c.name))('prints the help of %s with its usage and the exit codes', async (name) => {
    const { code, stdout } = await rein([name, '--help'])
    expect(code).toBe(ExitCodes.OK)
    expect(stdout).toMatch(new RegExp(`^Usage: rein ${name}`))
    expect(stdout).toContain('-h, --help')
    expect(stdout).toContain('2    usage error')
    expect((await rein(['help', name])).stdout).toBe(stdout)
  })

  it('prints its version for --version and -V', async () => {
    const { stdout } = await rein(['--version'])
    expect(stdout).toMatch(/^rein \d+\.\d+\.\d+\n$/)
    expect((await rein(['-V'])).stdout).toBe(stdout)
  })

  it('exits 2 with the help on stderr when given nothing', async () => {
    const { code, stdout, stderr } = await rein([])
    expect(code).toBe(ExitCodes.USAGE)
    expect(stdout).toBe('')
    expect(stderr).toContain('Usage: rein <command>')
  })

  it('exits 2 on an unknown command, suggesting a close one', async () => {
    const { code, stderr } = await rein(['chain'])
    expect(code).toBe(ExitCodes.USAGE)
    expect(stderr).toContain('unknown command "chain" (did you mean "chains"?)')
  })

  it('exits 2 on an unknown option, naming it', async () => {
    const { code, stderr } = await rein(['chains', '--colour'])
    expect(code).toBe(ExitCodes.USAGE)
    expect(stderr).toContain("rein chains: Unknown option '--colour'")
    expect(stderr).toContain('rein chains --help')
  })

  it('exits 2 when an option is missing its value', async () => {
    const { code, stderr } = await rein(['check', '-c'])
    expect(code).toBe(ExitCodes.USAGE)
    expect(stderr).toContain("Option '-c, --config <value>' argument missing")
  })

  it('exits 2 when a required argument is missing or one too many is given', async () => {
    expect(await rein(['trace'])).toMatchObject({ code: ExitCodes.USAGE, stderr: expect.stringContaining('missing argument; usage: rein trace <session.jsonl>') })
    expect(await rein(['run'])).toMatchObject({ code: ExitCodes.USAGE })
    expect(await rein(['run', ' '])).toMatchObject({ code: ExitCodes.USAGE, stderr: expect.stringContaining('the task is empty') })
    expect(await rein(['chains', 'extra'])).toMatchObject({ code: ExitCodes.USAGE, stderr: expect.stringContaining('unexpected argument "extra"') })
  })

  it('exits 1 with the file named when the config does not exist', async () => {
    const { code, stderr } = await rein(['chains', '-c', 'nowhere/rein.yaml'])
    expect(code).toBe(ExitCodes.FAILURE)
    expect(stderr).toMatch(/^rein chains: .*nowhere\/rein\.yaml/)
  })
})
