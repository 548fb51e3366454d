/**
 * One MCP server's connection, restarted on demand. At most one connection attempt runs at a
 * time and concurrent callers share it; a connection that closed (the child exited, the HTTP
 * transport failed) is retired, and the next `live()` starts a new one. Tools are listed once
 * per change: when connecting and on each `notifications/tools/list_changed`, with changes
 * that arrive during a listing coalesced into one more listing. After `close()` nothing reconnects.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ToolListChangedNotificationSchema, type Tool } from '@modelcontextprotocol/sdk/types.js'
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js'
import type { Logger } from 'cordis'
import type { ServerConfig } from './config.js'
import { DEFAULT_TIMEOUT_MS, describe, unavailable } from './errors.js'
import { serverRedactor } from './secrets.js'
import { openTransport, type OpenedTransport } from './transport.js'

/** How this client introduces itself to servers. */
const CLIENT_INFO = { name: 'rein', version: '0.1.0' }
/** Stderr lines kept for the message of a failed start. */
const STDERR_LINES = 5
/** A server that paginates its tool list beyond this many pages is cut off (and warned about). */
const MAX_PAGES = 100
/** Without `maxTotalMs`, a call may run this many times `timeoutMs` however often it reports progress. */
export const TOTAL_TIMEOUT_FACTOR = 10

/**
 * Structured content is validated by the kernel against the schema it compiled once at
 * registration; the SDK's own validator would compile every output schema again on every
 * listing, so it is replaced by one that accepts everything.
 */
const ACCEPT_ALL: jsonSchemaValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
}

/** What a connection reports to its owner. Called synchronously; must not throw. */
export interface ConnectionHooks {
  /** The server's whole tool list, after the first listing and after every change. */
  tools(tools: Tool[]): void
  /** A new connection is up (its tools already reported). */
  connected(pid: number | undefined): void
  /** The live connection closed without `close()` being called. */
  closed(reason: string): void
}

/** A connected client and its listing state. */
export interface Live {
  readonly client: Client
  readonly opened: OpenedTransport
  listing?: Promise<void>
  dirty: boolean
  retired: boolean
}

export class ServerConnection {
  private current?: Live
  private pending?: Promise<Live>
  private closing = false
  private stderrTail: string[] = []
  /** Takes this server's configured secrets (`headers` and `env` values) out of a text. */
  readonly redact: (text: string) => string

  constructor(
    readonly server: string,
    private readonly config: ServerConfig,
    private readonly hooks: ConnectionHooks,
    private readonly logger: Logger,
  ) {
    this.redact = serverRedactor(config)
  }

  /** The per-request timeout to use, or undefined for the SDK's default. */
  get timeoutMs(): number | undefined {
    return this.config.timeoutMs
  }

  /** The most one call may run, however often it reports progress. */
  get maxTotalMs(): number {
    return this.config.maxTotalMs ?? TOTAL_TIMEOUT_FACTOR * (this.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  }

  /** `describe(error)` without this server's secrets: the only way a failure becomes text. */
  explain(error: unknown): string {
    return this.redact(describe(error))
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.closing
  }

  /**
   * The live connection, connecting first when there is none. Rejects with the `signal`'s
   * reason when it aborts first (the attempt goes on for the next caller), and with a
   * `MCP_SERVER_UNAVAILABLE` error when the server cannot be started.
   */
  async live(signal?: AbortSignal): Promise<Live> {
    if (this.closing) throw unavailable(this.server, 'the mcp plugin is shutting down')
    if (this.current) return this.current
    const attempt = this.connect().catch((error: unknown) => {
      throw unavailable(this.server, `it could not be started: ${this.explain(error)}`)
    })
    return signal ? abortable(attempt, signal) : attempt
  }

  /**
   * Connects now, or joins the attempt in flight, or returns the live connection. Rejects
   * with the raw cause (with the child's last stderr lines) so that the owner can warn.
   */
  connect(): Promise<Live> {
    if (this.current) return Promise.resolve(this.current)
    this.pending ??= this.open().finally(() => { this.pending = undefined })
    return this.pending
  }

  /** Retires a broken connection so that the next call starts a new one. */
  drop(live: Live): void {
    if (live.retired) return
    this.retire(live, 'dropped after a transport failure')
    void this.shut(live)
  }

  /** Closes the connection (and kills a stdio child); nothing reconnects afterwards. */
  async close(): Promise<void> {
    this.closing = true
    const live = this.current
    if (live) {
      this.retire(live, 'closed')
      await this.shut(live)
    }
    await this.pending?.catch(() => {})
  }

  private async open(): Promise<Live> {
    const live = await this.dial()
    if (this.closing) {
      await this.shut(live)
      throw new Error('the mcp plugin is shutting down')
    }
    this.current = live
    this.hooks.connected(live.opened.pid())
    return live
  }

  private async dial(): Promise<Live> {
    this.stderrTail = []
    const opened = openTransport(this.config, (line) => this.stderr(line))
    const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: ACCEPT_ALL })
    const live: Live = { client, opened, dirty: false, retired: false }
    client.onclose = () => this.retire(live, 'the connection closed')
    client.onerror = (error) => this.logger.debug('server "%s": %s', this.server, this.explain(error))
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.list(live).catch((error: unknown) => {
        this.logger.warn('server "%s": listing its tools after a change failed (kept the old list): %s',
          this.server, this.explain(error))
      })
    })
    try {
      // A server may be slow to boot (`npx -y` fetching it): the handshake gets at least the default.
      await client.connect(opened.transport, { timeout: Math.max(this.timeoutMs ?? 0, DEFAULT_TIMEOUT_MS) })
      await this.list(live)
    } catch (error) {
      live.retired = true
      await this.shut(live)
      const tail = this.stderrTail.length ? `; stderr: ${this.stderrTail.join(' | ')}` : ''
      throw new Error(`${this.explain(error)}${tail}`)
    }
    return live
  }

  /** Lists the tools of `live` and reports them; one listing at a time, changes coalesced. */
  private list(live: Live): Promise<void> {
    if (live.listing) {
      live.dirty = true
      return live.listing
    }
    const run = async () => {
      try {
        do {
          live.dirty = false
          const tools = await this.fetchTools(live.client)
          if (!live.retired && !this.closing) this.hooks.tools(tools)
        } while (live.dirty && !live.retired)
      } finally {
        live.listing = undefined
      }
    }
    live.listing = run()
    return live.listing
  }

  private async fetchTools(client: Client): Promise<Tool[]> {
    const tools: Tool[] = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: this.timeoutMs })
      tools.push(...result.tools)
      cursor = result.nextCursor
      if (cursor === undefined) return tools
    }
    this.logger.warn('server "%s": stopped listing tools after %d pages', this.server, MAX_PAGES)
    return tools
  }

  private retire(live: Live, reason: string) {
    if (live.retired) return
    live.retired = true
    if (this.current !== live) return
    this.current = undefined
    if (!this.closing) this.hooks.closed(reason)
  }

  private async shut(live: Live) {
    await live.opened.farewell()
    await live.client.close().catch(() => {})
  }

  private stderr(raw: string) {
    const line = this.redact(raw)
    this.logger.debug('server "%s" stderr: %s', this.server, line)
    this.stderrTail.push(line.length > 300 ? `${line.slice(0, 300)}...` : line)
    if (this.stderrTail.length > STDERR_LINES) this.stderrTail.shift()
  }
}

/** `promise`, or the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
