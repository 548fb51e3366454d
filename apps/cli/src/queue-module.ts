/**
 * `@rein/queue`, for the fleet commands only (worker, submit, cancel, db). It brings the Redis
 * and PostgreSQL clients, so `@rein/cli` names it as an optional peer: a plain install (and
 * `npx @rein/cli init`) goes without it, and these commands say how to add it when it is missing.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from './paths.js'

type QueueModule = typeof import('@rein/queue')

/**
 * Imports `@rein/queue`; when it is not installed, throws an error that says how to install it.
 * `load` and `name` stand in for it in tests.
 */
export async function queueModule(load: () => Promise<unknown> = () => import('@rein/queue'), name = '@rein/queue'): Promise<QueueModule> {
  try {
    return await load() as QueueModule
  } catch (error) {
    const { code, message } = error as { code?: unknown, message?: unknown }
    if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string' || !message.includes(`'${name}'`)) throw error
    throw new Error(`the fleet commands (worker, submit, cancel, db) need ${name}, which a plain install of @rein/cli leaves out ` +
      `(it brings the Redis and PostgreSQL clients): npm install ${name}@${cliVersion()}`)
  }
}

function cliVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    return 'latest'
  }
}
