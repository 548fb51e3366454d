/**
 * A throwaway PostgreSQL server for tests, made from the machine's own binaries (Debian's
 * `/usr/lib/postgresql/<version>/bin`, else `initdb` and `pg_ctl` on PATH): a fresh cluster in
 * a temporary folder, listening only on a free 127.0.0.1 port, whose superuser has a password.
 * PostgreSQL refuses to run as root, so under root the server runs as the `postgres` user.
 * `close()` stops it and deletes the folder; a test process that exits without closing still
 * stops it. Where the binaries are missing, `whyNoPostgres()` says so (and, in CI, throws).
 */
import { execFile, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'
import { freePort, lastLines, missingOutsideCi } from './local-server.js'

const run = promisify(execFile)
const DEBIAN_BINARIES = '/usr/lib/postgresql'
const INSTALL = 'apt-get install -y postgresql'
const RAM_DISK = '/dev/shm'

/** A running test server. */
export interface PostgresServer {
  readonly host: '127.0.0.1'
  readonly port: number
  /** The superuser (`rein`). */
  readonly user: string
  readonly password: string
  readonly database: string
  /** `postgres://<user>:<password>@127.0.0.1:<port>/<database>`, the password URL-encoded. */
  readonly url: string
  /** How long `startPostgres` took, in ms (the cluster made, the server started and ready). */
  readonly startupMs: number
  /**
   * Stops the server. `fast` (the default) ends every session and shuts down cleanly;
   * `immediate` is like a crash (no checkpoint; the next start recovers from the WAL).
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  /** Starts it again after `stop`, on the same port, with the same data. */
  start(): Promise<void>
  /** Stops it (if running) and deletes its folder. */
  close(): Promise<void>
}

/** What `startPostgres` runs: the binaries' folder, and the user to run them as under root. */
interface Toolchain {
  binDir: string
  runAs?: { name: string, uid: number, gid: number }
}

export interface StartPostgresOptions {
  /** The superuser's password (default: random). */
  password?: string
}

/**
 * Why a test server cannot start on this machine (one sentence naming what is missing and how
 * to install it), or undefined when it can. When `CI=true` a missing server is an error: this
 * throws rather than letting the tests be skipped.
 */
export function whyNoPostgres(): string | undefined {
  const found = toolchain()
  if (typeof found !== 'string') return undefined
  return missingOutsideCi(found)
}

/** Starts a fresh server; throws (with the server's own log lines) when it cannot. */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const started = performance.now()
  const tools = toolchain()
  if (typeof tools === 'string') throw new Error(tools)
  const password = options.password ?? randomBytes(12).toString('hex')
  const dir = mkdtempSync(join(baseFolder(), 'rein-pg-'))
  const data = join(dir, 'data')
  const log = join(dir, 'server.log')
  if (tools.runAs) chownSync(dir, tools.runAs.uid, tools.runAs.gid)
  chmodSync(dir, 0o700)

  const pg = (bin: string, args: string[]) => {
    const file = join(tools.binDir, bin)
    const [command, argv] = tools.runAs ? ['runuser', ['-u', tools.runAs.name, '--', file, ...args]] : [file, args]
    // A fixed locale: the caller's may not be installed, and initdb refuses an unknown one.
    return run(command, argv, { env: { ...process.env, LANG: 'C', LC_ALL: 'C' }, timeout: 60_000 })
  }
  const stopOnExit = () => {
    killServer(data)
    rmSync(dir, { recursive: true, force: true })
  }
  let port = 0
  let running = false

  const start = async () => {
    try {
      await pg('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60', '-s', '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`])
    } catch (error) {
      throw new Error(`the test PostgreSQL server did not start on 127.0.0.1:${port}: ${lastLines(log)}`, { cause: error })
    }
    running = true
  }

  try {
    const pwfile = join(dir, 'password')
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 })
    if (tools.runAs) chownSync(pwfile, tools.runAs.uid, tools.runAs.gid)
    await pg('initdb', ['-D', data, '-U', 'rein', `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C', '-N'])
    rmSync(pwfile)
    process.on('exit', stopOnExit)
    // A free port can be taken between finding it and binding it: try a few.
    for (let attempt = 1; !running; attempt++) {
      port = await freePort()
      try {
        await start()
      } catch (error) {
        if (attempt === 3 || !/could not bind|already in use/i.test(lastLines(log))) throw error
      }
    }
  } catch (error) {
    process.off('exit', stopOnExit)
    stopOnExit()
    throw error
  }

  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!running) return
    await pg('pg_ctl', ['stop', '-D', data, '-m', mode, '-w', '-s'])
    running = false
  }
  return {
    host: '127.0.0.1', port, user: 'rein', password, database: 'postgres',
    url: `postgres://rein:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    startupMs: Math.round(performance.now() - started),
    stop,
    start: async () => { if (!running) await start() },
    async close() {
      await stop('fast').catch(() => killServer(data))
      process.off('exit', stopOnExit)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The binaries and the user to run them as, or a sentence saying what is missing. */
function toolchain(): Toolchain | string {
  const binDir = debianBinaries() ?? onPath()
  if (!binDir) return `the PostgreSQL server binaries (initdb, pg_ctl) were not found in ${DEBIAN_BINARIES}/*/bin or on PATH (${INSTALL})`
  if (process.getuid?.() !== 0) return { binDir }
  const uid = idOf('-u'), gid = idOf('-g')
  if (uid === undefined || gid === undefined) return 'running as root, and there is no "postgres" user to run the PostgreSQL server as (PostgreSQL refuses root)'
  if (spawnSync('runuser', ['--help']).error) return 'running as root, and runuser (util-linux) is missing to run PostgreSQL as the "postgres" user'
  return { binDir, runAs: { name: 'postgres', uid, gid } }
}

function debianBinaries(): string | undefined {
  if (!existsSync(DEBIAN_BINARIES)) return undefined
  const versions = readdirSync(DEBIAN_BINARIES).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
  return versions.map((v) => join(DEBIAN_BINARIES, v, 'bin')).find(hasServer)
}

function onPath(): string | undefined {
  return (process.env.PATH ?? '').split(delimiter).filter(Boolean).find(hasServer)
}

function hasServer(dir: string): boolean {
  return ['initdb', 'pg_ctl', 'postgres'].every((bin) => existsSync(join(dir, bin)))
}

function idOf(flag: '-u' | '-g'): number | undefined {
  const result = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' })
  return result.status === 0 ? Number(result.stdout.trim()) : undefined
}

/**
 * Where the cluster goes: /dev/shm when it is a RAM disk with room (making a cluster there takes
 * a third of the time it takes on a disk), else the temporary folder.
 */
function baseFolder(): string {
  try {
    const { bavail, bsize } = statfsSync(RAM_DISK)
    if (bavail * bsize >= 512 * 1024 * 1024) return RAM_DISK
  } catch {
    // no RAM disk here
  }
  return tmpdir()
}


/** Stops the server at once (SIGQUIT: immediate shutdown) without waiting; for the exit hook. */
function killServer(data: string): void {
  try {
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
    if (pid > 0) process.kill(pid, 'SIGQUIT')
  } catch {
    // not running
  }
}

