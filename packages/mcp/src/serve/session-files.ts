/**
 * One JSONL file per MCP session in a folder (`rein mcp serve --sessions <dir>`),
 * `<dir>/<MCP session id>.jsonl`, made when the session first reads or writes its facts and
 * removed when the session ends. Nothing in it can be met after that: an answer is met only by
 * the same call made again in the same MCP session, and a session that starts later has an id,
 * so a file, of its own. A server that was killed leaves its sessions' files behind:
 * `removeStale` removes those no session wrote for a given time (the host's file names only,
 * never another file of the folder).
 */
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { jsonlSession, type SessionStore } from '@rein/agent'

/** The file name of a session the host opened: `stdio-<uuid>` (stdio) or `<uuid>` (HTTP), then `.jsonl`. */
const SESSION_FILE = /^(?:stdio-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/

/** The sessions' files in one folder: what `createMcpHost` takes as `sessionStore` and `sessionEnded`. */
export interface SessionFiles {
  /** The store of MCP session `id`: `<dir>/<id>.jsonl`. */
  sessionStore(id: string): SessionStore
  /** Removes the file of MCP session `id` (and a lock left beside it); a file that is not there is no error. */
  sessionEnded(id: string): Promise<void>
  /**
   * Removes the session files that nothing wrote for `maxAgeMs` (by their modification time, and
   * their lock's, if one is left) as of `now`; resolves with the names removed. A folder that is
   * not there has none.
   */
  removeStale(maxAgeMs: number, now?: number): Promise<string[]>
}

/** The session files of folder `dir` (created when the first file is). */
export function sessionFiles(dir: string): SessionFiles {
  const fileOf = (id: string) => join(dir, `${id}.jsonl`)
  const remove = (file: string) => Promise.all([file, `${file}.lock`, `${file}.lock.takeover`].map((path) => rm(path, { force: true })))
  return {
    sessionStore: (id) => jsonlSession(fileOf(id)),
    async sessionEnded(id) {
      await remove(fileOf(id))
    },
    async removeStale(maxAgeMs, now = Date.now()) {
      let names: string[]
      try {
        names = await readdir(dir)
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ENOENT') return []
        throw error
      }
      const removed: string[] = []
      for (const name of names.filter((found) => SESSION_FILE.test(found)).sort()) {
        const file = join(dir, name)
        const written = Math.max(await modifiedAt(file), await modifiedAt(`${file}.lock`))
        if (now - written < maxAgeMs) continue
        await remove(file)
        removed.push(name)
      }
      return removed
    },
  }
}

/** When `path` was last modified (ms since the epoch), or 0 when it is not there. */
async function modifiedAt(path: string): Promise<number> {
  try {
    return (await stat(path)).mtimeMs
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return 0
    throw error
  }
}
