/**
 * The plugin's configuration, checked by cordis when the plugin is added: every limit is a
 * whole number in a range the sandbox can honour, and every allow-listed tool name is a valid
 * tool name. A bad entry fails the start with a message naming the key and the fix.
 */
import { Schema } from 'cordis'

const KiB = 1024
const MiB = 1024 * KiB

/** The QuickJS stack limit when `maxStackBytes` is not set (about 2,700 frames of a simple function). */
export const DEFAULT_STACK_BYTES = 512 * KiB
/**
 * The largest stack limit. Each counted byte can take up to ~32 bytes of the thread's own
 * stack (the parser's WebAssembly frames), which is sized from this limit (see `threadStackMb`).
 */
export const MAX_STACK_BYTES = 1 * MiB

export interface Config {
  /** The longest one run may take, in ms, sub-calls included; then the sandbox is stopped. */
  maxRunMs: number
  /** The most memory the code's heap may use, in bytes. */
  memoryLimitBytes: number
  /** The most stack the code may use, in bytes; deeper recursion throws a catchable InternalError. Default 512 KiB. */
  maxStackBytes?: number
  /** The tools the code may call; unset = every registered tool except `run_code` itself. */
  tools?: string[]
  /** The most `tools.<name>()` calls one run may make. */
  maxCalls: number
  /** The most of those calls running at once; the rest wait their turn. */
  maxParallelCalls: number
}

/** What a user may write: every key is optional. */
export type ConfigInput = Partial<Config>

/** A tool name as the kernel accepts it. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/

const Shape = Schema.object({
  maxRunMs: Schema.natural().min(1).default(30_000)
    .description('Longest run in ms (sub-calls included); a busy loop is stopped too.'),
  memoryLimitBytes: Schema.natural().min(1 * MiB).max(1024 * MiB).default(64 * MiB)
    .description('Heap limit of the code, in bytes (1 MiB to 1 GiB).'),
  maxStackBytes: Schema.natural().min(64 * KiB).max(MAX_STACK_BYTES)
    .description('Stack limit of the code, in bytes (64 KiB to 1 MiB); default 512 KiB.'),
  // Checked below: an array schema would turn a missing list into [] (no tool callable).
  tools: Schema.any().description('Tools the code may call, by exact name; default: all except run_code.'),
  maxCalls: Schema.natural().min(1).default(1000)
    .description('Most tool calls one run may make.'),
  maxParallelCalls: Schema.natural().min(1).default(10)
    .description('Most tool calls of one run running at once.'),
})

const TOOLS_HINT = 'list tools by their exact names, e.g. tools: [read_file, grep]'

function check(config: Config): Config {
  const tools = config.tools as unknown
  if (tools === undefined || tools === null) {
    delete config.tools
    return config
  }
  if (!Array.isArray(tools)) {
    throw new Schema.ValidationError(`must be a list of tool names, not ${JSON.stringify(tools)}; ${TOOLS_HINT}`, { path: ['tools'] })
  }
  tools.forEach((name: unknown, index) => {
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      throw new Schema.ValidationError(
        `${JSON.stringify(name)} is not a tool name (1-64 letters, digits, "_" or "-"); ${TOOLS_HINT}`,
        { path: ['tools', index] })
    }
  })
  return config
}

/** The schema cordis validates the config with at load; fills in the defaults. */
export const Config: Schema<ConfigInput | undefined, Config> =
  Schema.transform(Shape, (input) => check(input as unknown as Config), true).default({} as Config)
