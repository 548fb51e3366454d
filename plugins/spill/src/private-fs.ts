/**
 * Private files for the local store: every folder made here is mode 0700 and every file 0600,
 * set explicitly after creation because a umask can only remove bits. Files are created
 * exclusively (`wx`), so an existing file, or a link planted in its place, is never written.
 */
import { chmod, mkdir, mkdtemp, open } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

const PRIVATE_DIR = 0o700
const PRIVATE_FILE = 0o600

/** Makes `dir` and any missing parents, each created one 0700. Existing folders are left as they are. */
export async function makePrivateDir(dir: string): Promise<void> {
  const target = resolve(dir)
  const first = await mkdir(target, { recursive: true, mode: PRIVATE_DIR })
  if (first === undefined) return
  // mkdir returns the topmost folder it created; every folder from there down to `dir` is new.
  for (let made = target; ; made = dirname(made)) {
    await chmod(made, PRIVATE_DIR)
    if (made === first || dirname(made) === made) break
  }
}

/** Makes a fresh 0700 directory whose name starts with `prefix` (see `fs.mkdtemp`). */
export async function makePrivateTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(prefix)
  await chmod(dir, PRIVATE_DIR)
  return dir
}

/** Writes `text` to the new file `path` (0600); rejects with `EEXIST` when anything is there. */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx', PRIVATE_FILE)
  try {
    await handle.chmod(PRIVATE_FILE)
    await handle.writeFile(text, 'utf8')
  } finally {
    await handle.close()
  }
}
