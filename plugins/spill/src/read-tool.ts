/**
 * The read-back tool `read_spilled({ locator, offset?, limit? })`, registered by the plugin.
 * It is idempotent and safe to run in parallel; it reads byte ranges of a spilled output so
 * the model can page through it, and at most `maxLimit` bytes at a time, because its own
 * results are never spilled.
 */
import { defineTool, type ToolDefinition } from '@rein/kernel'
import { SPILL_STORE_UNAVAILABLE } from './codes.js'
import { sliceBytes, sliceWindow, windowEnd, type ByteSlice } from './slice.js'
import { READ_SPILLED, type SpillStore } from './store.js'

export interface ReadSpilledArgs {
  locator: string
  offset?: number
  limit?: number
}

/** The value `read_spilled` returns. */
export type SpilledSlice = ByteSlice & { locator: string }

/** Thrown when `store: 'external'` is configured and no `spillStore` service exists. */
class StoreUnavailableError extends Error {
  readonly code = SPILL_STORE_UNAVAILABLE
  constructor() {
    super('no spill store is available (store: external, and no plugin provides the spillStore service)')
  }
}

/** How the model sees a slice: the text, then one line saying where it is and what remains. */
function render(args: ReadSpilledArgs, value: SpilledSlice) {
  const where = `[bytes ${value.offset} to ${value.nextOffset} of ${value.totalBytes}`
  const status = value.more
    ? `${where}; more remains: call ${READ_SPILLED}({ locator: ${JSON.stringify(args.locator)}, offset: ${value.nextOffset} })]`
    : `${where}; this is the end of the output]`
  return [{ type: 'text' as const, text: value.text }, { type: 'text' as const, text: status }]
}

/** The `read_spilled` tool, reading from whatever `store()` returns when it runs. */
export function readSpilledTool(store: () => SpillStore | undefined, maxLimit: number): ToolDefinition<ReadSpilledArgs, SpilledSlice> {
  return defineTool<ReadSpilledArgs, SpilledSlice>({
    name: READ_SPILLED,
    description: 'Read part of a tool output that was too large to show inline and was saved. '
      + 'Pass the locator from the notice; offset and limit count UTF-8 bytes '
      + `(limit defaults to, and is at most, ${maxLimit}).`,
    parameters: {
      type: 'object',
      properties: {
        locator: { type: 'string', minLength: 1, description: 'The locator given in the notice.' },
        offset: { type: 'integer', minimum: 0, description: 'The first byte to read (default 0).' },
        limit: { type: 'integer', minimum: 1, description: `How many bytes to read (default and maximum ${maxLimit}).` },
      },
      required: ['locator'],
      additionalProperties: false,
    },
    output: { render },
    isConcurrencySafe: () => true,
    idempotent: true,
    async execute(args) {
      const current = store()
      if (!current) throw new StoreUnavailableError()
      const offset = args.offset ?? 0
      const limit = Math.min(args.limit ?? maxLimit, maxLimit)
      if (current.readRange) {
        // Only the page and the few bytes that place it on character boundaries.
        const range = await current.readRange(args.locator, offset, windowEnd(offset, limit))
        const windowStart = Math.min(offset, range.totalBytes)
        return { locator: args.locator, ...sliceWindow(range.bytes, windowStart, range.totalBytes, offset, limit) }
      }
      const text = await current.read(args.locator)
      return { locator: args.locator, ...sliceBytes(text, offset, limit) }
    },
  })
}
