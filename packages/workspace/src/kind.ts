/** Naming what a path is, for messages. */
import type { Stats } from 'node:fs'

/** What `stat` describes, with its article: `a directory`, `a FIFO`, `a socket`, ... */
export function kindOf(stat: Stats): string {
  if (stat.isFile()) return 'a regular file'
  if (stat.isDirectory()) return 'a directory'
  if (stat.isSymbolicLink()) return 'a symbolic link'
  if (stat.isFIFO()) return 'a FIFO'
  if (stat.isSocket()) return 'a socket'
  if (stat.isCharacterDevice()) return 'a character device'
  if (stat.isBlockDevice()) return 'a block device'
  return 'an unknown kind of file'
}
