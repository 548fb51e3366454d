/**
 * `@rein/tools-shell`: the `bash` tool as a cordis plugin. Commands start in a folder inside
 * `config.root` (confined by `@rein/workspace`), see only the allow-listed environment
 * variables, and run in a session of their own whose every process is ended when the call ends
 * (exit, abort or time limit). The root, the shell and the environment are fixed at start.
 */
import type { Context } from 'cordis'
import { checkProcFd, Root } from '@rein/workspace'
import { bashTool } from './bash.js'
import { Config, type ConfigInput } from './config.js'
import { findShell, pickEnv } from './environment.js'

/** The cordis plugin name. */
export const name = 'tools-shell'
/** Applied after the kernel, which provides `ctx.tools`. */
export const inject = ['tools']
export { Config, type ConfigInput }

/** Registers `bash` for as long as the plugin lives. Throws when the root or the shell is unusable. */
export function apply(ctx: Context, config: Config) {
  const owner = '@rein/tools-shell'
  const root = Root.open(config?.root, owner, { noun: 'cwd', purpose: 'the folder commands run in' })
  checkProcFd(root, owner)
  const shell = findShell(config.shell, process.env.PATH, owner)
  ctx.tools.register(bashTool(root, config, shell, pickEnv(config.env, process.env)))
}

export * from './codes.js'
export { Capture, type Kept } from './capture.js'
export { budgets, joined, type BashArgs, type BashValue } from './bash.js'
export { pickEnv } from './environment.js'
