/**
 * The agent's view of its session: the store, plus an in-memory mirror of its entries from
 * which the conversation is rebuilt. Every entry goes to the store first and reaches the
 * mirror only once the store holds it. Entries appended and not yet acknowledged are kept
 * aside (`issued`): the next model request may show them (`messages(true)`), as the agent
 * asks the model while the sync covering a batch's results is still under way
 * (docs/ARCHITECTURE.md, "Logging, abort, failure and crashes"); a run's outcome shows only
 * the mirror.
 * Every entry it appends carries `at` (ms since the epoch): the time given, else the moment
 * `append` was called, so any store, and every entry (repairs included), gets one. What a
 * store loads is checked entry by entry (shape and `seq` order) before the agent uses any of
 * it, whichever store it is: a damaged session ends the run `error`, never a broken transcript.
 */
import { deepFreeze, type Message, type SessionApprovals, type SessionRef } from '@rein/kernel'
import { inPlaceAppend, type InPlaceStore, type NewSessionEntry, type SessionEntry, type SessionStore } from './session.js'
import { ApprovalLedger } from './approval-entries.js'
import { sessionEntryProblem } from './session-entry.js'
import { PluginState } from './session-state.js'
import { headOf } from './store-head.js'
import { buildMessages, lastTurn, turnOf } from './transcript.js'

/** The session of one agent: writes go through the store, reads come from the mirror. */
export class SessionLog {
  private entries: SessionEntry[] = []
  private loaded = false
  // The highest turn so far, kept up to date on every append rather than found by a scan.
  private highestTurn = 0

  // A `state` entry that failed to append: every later append is refused with it (DESIGN.md §7.1).
  private stateFailure: Error | undefined
  private readonly state = new PluginState((entry) => this.append(entry).catch((error: unknown) => {
    this.stateFailure ??= new Error(`a plugin's session state could not be stored, so nothing after it is: ${(error as Error)?.message ?? String(error)}`, { cause: error })
    throw error
  }))

  // Appended, not yet acknowledged, in append order (a store numbers entries in that order).
  private readonly issued = new Set<NewSessionEntry>()
  // The memory store's append in place, when the store is one (docs/performance.md, "Memory appends in place").
  private storeNow: InPlaceStore | undefined

  /** What every call of this session carries as `exec.session`: the store's id and the plugins' state. */
  readonly session: SessionRef

  /** `approvals`: what the session's calls see as `exec.session.approvals`. */
  constructor(readonly store: SessionStore, approvals?: SessionApprovals) {
    this.session = Object.freeze(approvals ? { id: store.id, state: this.state, approvals } : { id: store.id, state: this.state })
  }

  /**
   * Reads the store at the start of each run, unless the store tells that its last entry is the
   * last one read or written here (`store-head.ts`): so entries another writer added meanwhile
   * (another store, process or `answerApproval`: an answer, a parked batch) are always seen.
   * Throws, keeping nothing, when an entry is not valid.
   */
  async open(): Promise<void> {
    // Read at each run: a store's `append` may have been wrapped since (tests observe appends so).
    this.storeNow = inPlaceAppend(this.store)
    if (this.loaded && headOf(this.store) === (this.entries.at(-1)?.seq ?? 0)) return
    const entries = checked(await this.store.load())
    this.entries = entries.map((entry) => deepFreeze(entry))
    this.highestTurn = lastTurn(this.entries)
    this.state.load(this.entries)
    this.loaded = true
  }

  /** Stamps `at` when missing, appends durably, then mirrors (kept in `seq` order whatever order appends resolve in). */
  append(entry: NewSessionEntry): Promise<SessionEntry> {
    try {
      if (this.storeNow) return Promise.resolve(this.storeInPlace(entry))
      return this.add(entry)!
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * `append`, except that a store which stores an entry as it is called (the memory store) makes
   * no promise: the entry is mirrored at once and `add` returns undefined (or throws what the
   * store threw). The agent appends twice per call. `owned`: `entry` was made for this append
   * alone, every value deep-frozen, and such a store may keep the object itself (`InPlaceStore`).
   */
  add(entry: NewSessionEntry, owned = false): Promise<SessionEntry> | undefined {
    if (this.storeNow) {
      this.storeInPlace(entry, owned)
      return undefined
    }
    if (this.stateFailure) throw this.stateFailure
    const stamped = stampedOf(entry)
    const appended = Promise.resolve(this.store.append(stamped))
    this.issued.add(stamped)
    // A `then`, not an await.
    return appended.then((stored) => {
      this.issued.delete(stamped)
      return this.mirror(deepFreeze(stored))
    }, (error: unknown) => {
      this.issued.delete(stamped)
      throw error
    })
  }

  private storeInPlace(entry: NewSessionEntry, owned = false): SessionEntry {
    if (this.stateFailure) throw this.stateFailure
    const stored = this.storeNow!(stampedOf(entry), owned)
    // An owned entry comes back frozen all the way down; only another's needs the walk.
    return this.mirror(owned ? stored : deepFreeze(stored))
  }

  /** Keeps `stored` in the mirror, in `seq` order; returns it. */
  private mirror(stored: SessionEntry): SessionEntry {
    let at = this.entries.length
    while (at > 0 && this.entries[at - 1].seq > stored.seq) at--
    // A push when it goes last, as it almost always does: a splice makes an array each time.
    if (at === this.entries.length) this.entries.push(stored)
    else this.entries.splice(at, 0, stored)
    const turn = turnOf(stored)
    if (turn !== undefined && turn > this.highestTurn) this.highestTurn = turn
    return stored
  }

  /** Every entry so far, in `seq` order. */
  get all(): readonly SessionEntry[] {
    return this.entries
  }

  /** The highest turn so far (0 for a new session). */
  get turn(): number {
    return this.highestTurn
  }

  /**
   * The conversation, as the provider is shown it: what the store acknowledged, and with
   * `issued` also what is appended and not yet acknowledged (the next model request's view).
   */
  messages(issued = false): Message[] {
    return buildMessages(issued && this.issued.size > 0 ? [...this.entries, ...this.issued] as SessionEntry[] : this.entries)
  }
}

/** `entry` with `at`: the time given, else now. */
function stampedOf(entry: NewSessionEntry): NewSessionEntry {
  return entry.at === undefined ? { ...entry, at: Date.now() } : entry
}

/** The entries a store loaded, once each is known to be valid and in `seq` order. */
function checked(loaded: unknown): SessionEntry[] {
  if (!Array.isArray(loaded)) throw new Error('the session store\'s load() did not resolve an array of entries')
  const ledger = new ApprovalLedger()
  loaded.forEach((entry, i) => {
    const problem = sessionEntryProblem(entry, i === 0 ? undefined : (loaded[i - 1] as SessionEntry).seq) ?? ledger.problem(entry as SessionEntry)
    if (problem !== undefined) throw new Error(`session entry ${i + 1} of ${loaded.length}, as the store loaded it: ${problem}`)
  })
  return loaded
}
