/**
 * Rein tool names for MCP tools: `<server>__<tool>`, always within the kernel's rule
 * (`[A-Za-z0-9_-]{1,64}`). A tool name that has to change (other characters, too long, or
 * clashing with a name already given) keeps a readable prefix and ends with a short hash of
 * the original, so the same server list always yields the same names and no two collide.
 */
import { createHash } from 'node:crypto'

/** The kernel's limit on tool names. */
export const MAX_NAME = 64
const HASH_LENGTH = 8

/**
 * The rein name of MCP tool `tool` of server `server`. `taken` holds names already given to
 * this server's other tools; the result is never one of them. `server` is already valid.
 */
export function toolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const prefix = `${server}__`
  const clean = tool.replace(/[^A-Za-z0-9_-]/g, '_')
  const plain = prefix + clean
  if (clean.length > 0 && plain.length <= MAX_NAME && !taken.has(plain)) return plain
  for (let salt = 0; ; salt++) {
    const hash = createHash('sha256').update(salt === 0 ? tool : `${tool}\u0000${salt}`).digest('hex').slice(0, HASH_LENGTH)
    const room = MAX_NAME - prefix.length - HASH_LENGTH - 1
    const name = `${prefix}${clean.slice(0, Math.max(0, room))}_${hash}`
    if (!taken.has(name)) return name
  }
}
