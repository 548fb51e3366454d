/**
 * Advisory lock keys: a name hashed (SHA-256) to PostgreSQL's 64-bit advisory key, the same on
 * every machine and every server version. As `pg_locks` shows such a lock, the key's high 32
 * bits are its `classid` and its low 32 bits its `objid` (with `objsubid` 1).
 */
import { createHash } from 'node:crypto'

/** The signed 64-bit key for `name`. */
export function advisoryKey(name: string): bigint {
  return createHash('sha256').update(name).digest().readBigInt64BE(0)
}

/** How `pg_locks` shows the lock on `key`. */
export function lockRow(key: bigint): { classid: string, objid: string } {
  const unsigned = BigInt.asUintN(64, key)
  return { classid: String(unsigned >> 32n), objid: String(unsigned & 0xffffffffn) }
}

/** The key of the one-writer lock on session `id` in `qualified` (`"schema"."table"`). */
export function sessionKey(qualified: string, id: string): bigint {
  return advisoryKey(`rein.session:${qualified}:${id}`)
}
