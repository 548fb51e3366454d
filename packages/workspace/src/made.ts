/** Removing again a file this call made, and only that file. */
import { lstat, unlink, type FileHandle } from 'node:fs/promises'

/** Unlinks `at` if that name still holds the file open as `handle` (one this call created). */
export async function removeMade(handle: FileHandle, at: string): Promise<void> {
  const [ours, there] = await Promise.all([handle.stat(), lstat(at).catch(() => undefined)])
  if (there && there.dev === ours.dev && there.ino === ours.ino) await unlink(at).catch(() => undefined)
}
