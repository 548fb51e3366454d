/**
 * The plugin's configuration, checked by cordis when the plugin is added: a missing `root`
 * or a malformed environment variable name fails the start, not the first call.
 */
import { Schema } from 'cordis'

export interface Config {
  /** The folder commands run in (and the folder `cwd` is confined to). */
  root: string
  /** Names of the environment variables passed through to commands; nothing else is. */
  env: string[]
  /** The tool's own time limit per command, in ms; unset = none (a timeout plugin may still apply). */
  timeoutMs?: number
  /** stdout and stderr together keep at most this many bytes (head and tail). */
  maxOutputBytes: number
  /** After SIGTERM to the command's processes, wait this long before SIGKILL. */
  killGraceMs: number
  /** The shell, by name (looked up on PATH at start) or by absolute path. */
  shell: string
}

/** What a user writes: `root`, and whatever they want to change. */
export type ConfigInput = { root: string } & Partial<Omit<Config, 'root'>>

export const Config: Schema<ConfigInput, Config> = Schema.object({
  root: Schema.string().required().description('The folder commands run in; cwd is confined to it.'),
  env: Schema.array(Schema.string().pattern(/^[A-Za-z_][A-Za-z0-9_]*$/)).default(['PATH', 'HOME', 'LANG'])
    .description('Environment variables passed through to commands (names only).'),
  timeoutMs: Schema.natural().min(1).description('Per-command time limit in ms; output so far is kept.'),
  maxOutputBytes: Schema.natural().min(64).default(30_000).description('stdout + stderr bytes kept (head and tail).'),
  killGraceMs: Schema.natural().default(500).description('SIGTERM to SIGKILL grace in ms.'),
  shell: Schema.string().default('bash').description('The shell, run as <shell> -c <command>.'),
}) as unknown as Schema<ConfigInput, Config>
