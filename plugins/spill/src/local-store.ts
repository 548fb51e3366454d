/**
 * The local-files spill store. Outputs are files named by a random locator in one private
 * directory (mode 0700, files 0600 whatever the umask, created exclusively so nothing is ever
 * overwritten or followed through a planted link). `read` accepts only locators of the exact
 * shape it issues, so no locator can name a path outside the directory.
 */
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { lstat, open, readFile, unlink, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { utf8Length } from '@rein/retention'
import { makePrivateDir, makePrivateTempDir, writePrivateFile } from './private-fs.js'
import { StoreBound } from './bound.js'
import { readSpilledHint, SpillExpiredError, SpillNotFoundError, type ByteRange, type SavedSpill, type SpillMeta, type SpillStore } from './store.js'

/** The only locators this store issues or reads: `spill_` and 32 lowercase hex digits. */
const LOCATOR = /^spill_[0-9a-f]{32}$/

export interface LocalStoreOptions {
  /**
   * The directory to keep outputs in. Created (0700) when missing; refused when it is not a
   * plain directory or other users can access it. Default: a fresh directory under
   * `os.tmpdir()`, made on the first save and removed by `close()`.
   */
  dir?: string
  /**
   * At most this many bytes of the outputs this store saved are kept on disk; past it the
   * oldest saved are deleted first. Default 256 MiB.
   */
  maxBytes?: number
}

/** A spill store that keeps each output in its own file, within `maxBytes` of what it saved. */
export class LocalSpillStore implements SpillStore {
  private ready?: Promise<string>
  private temporary?: string
  private readonly bound: StoreBound

  constructor(private readonly options: LocalStoreOptions = {}) {
    this.bound = new StoreBound(options.maxBytes)
  }

  /** Bytes of the outputs this store saved and still holds. */
  get bytes(): number {
    return this.bound.bytes
  }

  /** The directory in use, once the first save or read has prepared it. */
  get directory(): string | undefined {
    return this.temporary ?? (this.options.dir === undefined ? undefined : resolve(this.options.dir))
  }

  async save(text: string, _meta: SpillMeta): Promise<SavedSpill> {
    const dir = await this.prepare()
    const bytes = utf8Length(text)
    const locator = `spill_${randomBytes(16).toString('hex')}`
    await writePrivateFile(join(dir, `${locator}.txt`), text)
    // Counted once written; the outputs past the bound go (a failed unlink leaves a file, never an error).
    await Promise.all(this.bound.add(locator, bytes).map((removed) => this.unlink(dir, removed).catch(() => {})))
    return { locator, bytes, retrievalHint: readSpilledHint(locator) }
  }

  async read(locator: string): Promise<string> {
    const path = await this.pathOf(locator)
    try {
      return await readFile(path, 'utf8')
    } catch (error) {
      throw this.missing(error, locator)
    }
  }

  /** Reads only the bytes [start, end) of the file (clipped to its size), and its size. */
  async readRange(locator: string, start: number, end: number): Promise<ByteRange> {
    const path = await this.pathOf(locator)
    let file: FileHandle
    try {
      file = await open(path, 'r')
    } catch (error) {
      throw this.missing(error, locator)
    }
    try {
      const totalBytes = (await file.stat()).size
      const from = Math.min(Math.max(start, 0), totalBytes)
      const bytes = Buffer.alloc(Math.max(0, Math.min(end, totalBytes) - from))
      let filled = 0
      while (filled < bytes.length) {
        const { bytesRead } = await file.read(bytes, filled, bytes.length - filled, from + filled)
        if (bytesRead === 0) break
        filled += bytesRead
      }
      return { bytes: bytes.subarray(0, filled), totalBytes }
    } finally {
      await file.close()
    }
  }

  /** The file of a locator this store could have issued; rejects for any other. */
  private async pathOf(locator: string): Promise<string> {
    if (typeof locator !== 'string' || !LOCATOR.test(locator)) throw new SpillNotFoundError(String(locator))
    if (this.options.dir === undefined && !this.ready) throw new SpillNotFoundError(locator)
    return join(await this.prepare(), `${locator}.txt`)
  }

  async delete(locator: string): Promise<void> {
    if (!LOCATOR.test(locator) || !this.ready) return
    const dir = await this.prepare()
    this.bound.release(locator)
    await this.unlink(dir, locator)
  }

  private async unlink(dir: string, locator: string): Promise<void> {
    await unlink(join(dir, `${locator}.txt`)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }

  /** A missing file: expired when the bound removed it, else a locator this store does not hold. */
  private missing(error: unknown, locator: string): unknown {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error
    return this.bound.isExpired(locator) ? new SpillExpiredError(locator, this.bound.maxBytes) : new SpillNotFoundError(locator)
  }

  /**
   * Removes the default temporary directory (a configured `dir` is left as it is). A directory
   * that exists is removed before this returns its promise, synchronously, so a process that
   * exits right after disposing the plugin (which does not wait for it) leaves nothing behind;
   * one still being made by a save is removed as soon as it exists.
   */
  async close(): Promise<void> {
    const pending = this.ready
    const dir = this.temporary
    this.ready = undefined
    this.temporary = undefined
    this.bound.clear()
    if (dir) return removeDir(dir)
    if (pending === undefined || this.options.dir !== undefined) return
    const made = await pending.catch(() => undefined)
    if (made === undefined) return
    if (this.temporary === made) this.temporary = undefined
    removeDir(made)
  }

  /** Makes (or checks) the directory once; a failure is not remembered, so a later save retries. */
  private prepare(): Promise<string> {
    this.ready ??= this.makeDirectory().catch((error: unknown) => {
      this.ready = undefined
      throw error
    })
    return this.ready
  }

  private async makeDirectory(): Promise<string> {
    if (this.options.dir === undefined) {
      this.temporary = await makePrivateTempDir(join(tmpdir(), `rein-spill-${process.pid}-`))
      return this.temporary
    }
    const dir = resolve(this.options.dir)
    await makePrivateDir(dir)
    const stat = await lstat(dir)
    if (!stat.isDirectory()) {
      throw new Error(`spill dir ${dir} is not a plain directory (a file or a symlink); set dir to a private directory`)
    }
    if ((stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8)
      throw new Error(`spill dir ${dir} is open to other users (mode ${mode}); run \`chmod 700 ${dir}\` or choose another dir`)
    }
    if (process.getuid && stat.uid !== process.getuid()) {
      throw new Error(`spill dir ${dir} belongs to another user; choose a directory you own`)
    }
    return dir
  }
}

/** Makes a local-files spill store. */
export function localStore(options: LocalStoreOptions = {}): LocalSpillStore {
  return new LocalSpillStore(options)
}

function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
