/**
 * Keeps one server's tools registered in `ctx.tools` in line with its latest tool list.
 * An unchanged tool keeps its registration (and its name, and the kernel's compiled schemas);
 * a changed one is replaced, a removed one unregistered, a new one registered. The swap
 * happens in one synchronous step, so no call ever sees a half-updated list.
 */
import type { ToolDefinition } from '@rein/kernel'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { Logger } from 'cordis'
import type { ServerConnection } from './connection.js'
import { toolName } from './names.js'
import { mcpTool } from './tool.js'

interface Entry {
  /** The rein name. */
  name: string
  /** The MCP tool as listed, as JSON: a registration is kept while this is unchanged. */
  fingerprint: string
  dispose: () => void
}

export class ServerTools {
  private entries = new Map<string, Entry>()
  private readonly skipped = new Set<string>()

  constructor(
    private readonly connection: ServerConnection,
    private readonly register: (definition: ToolDefinition) => () => void,
    private readonly logger: Logger,
  ) {}

  /** The rein names registered now, in the server's order. */
  names(): string[] {
    return [...this.entries.values()].map((entry) => entry.name)
  }

  /** Brings the registrations in line with `tools`; returns the rein names now registered. */
  update(tools: readonly Tool[]): string[] {
    const usable = tools.filter((tool) => this.usable(tool))
    const next = new Map<string, Entry>()
    const taken = new Set<string>()
    for (const tool of usable) {
      const old = this.entries.get(tool.name)
      if (old && !next.has(tool.name) && old.fingerprint === JSON.stringify(tool)) {
        next.set(tool.name, old)
        taken.add(old.name)
      }
    }
    for (const [key, entry] of this.entries) if (next.get(key) !== entry) entry.dispose()
    for (const tool of usable) {
      if (next.has(tool.name)) continue
      const name = toolName(this.connection.server, tool.name, taken)
      try {
        const dispose = this.register(mcpTool(this.connection, tool, name))
        next.set(tool.name, { name, fingerprint: JSON.stringify(tool), dispose })
        taken.add(name)
      } catch (error) {
        this.logger.warn('server "%s": tool "%s" was not registered: %s', this.connection.server, tool.name, this.connection.explain(error))
      }
    }
    this.entries = next
    return this.names()
  }

  /** Tools that need the experimental task API cannot be called with a plain `tools/call`. */
  private usable(tool: Tool): boolean {
    if (tool.execution?.taskSupport !== 'required') return true
    if (!this.skipped.has(tool.name)) {
      this.skipped.add(tool.name)
      this.logger.warn('server "%s": tool "%s" requires task-based execution, which rein does not support; skipped',
        this.connection.server, tool.name)
    }
    return false
  }
}
