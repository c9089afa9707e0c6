/**
 * How many AltaPay look-ups anonymous customer returns may cost (issue 29). Anyone can GET or post
 * `<backendUrl>/altapay/return/<id>/<kind>` with any session id, and each unconfirmed return asks
 * AltaPay (`payments`). A budget per registration bounds that:
 *
 *   per session  one look-up in flight per process (a second request for the same session shares
 *                the first's answer) and at most `perSessionPerMinute` per minute across servers
 *   overall      at most `perSecond` per second across servers, and never more per process
 *   concurrent   at most `concurrent` in flight per process, whatever AltaPay's latency
 *
 * Counted in Medusa's cache module when the Payment module has one (`store`), else in this
 * budget's own memory (never the process store: a flood of made-up session ids must not push the
 * payments' own entries out of it). The cache has no atomic increment: a count is read, then
 * written, one at a time within a process; servers counting at the very same moment may each
 * take the last look-up of a second, so across S servers the worst case is S x perSecond, the
 * usual case perSecond. A cache that fails leaves the per-process limits in force.
 *
 * Over budget nothing is asked and the caller answers as when AltaPay cannot be asked. Only
 * anonymous look-ups come here: a post AltaPay signed never does (confirm.ts).
 */
import type { SharedStore } from "../scale-out/shared-state"

export interface ReturnLookUpLimits {
  perSessionPerMinute: number
  perSecond: number
  concurrent: number
}

/** Why a look-up was not made: its session's minute, the registration's second, or the in-flight limit. */
export type CapReason = "session" | "overall" | "concurrent"

export type Budgeted<T> = { admitted: true; value: T } | { admitted: false; reason: CapReason }

export interface LookUpBudgetConfig {
  /** The registration (pp_altapay_card): names the counters, shared by every server. */
  name: string
  limits: ReturnLookUpLimits
  /** Medusa's cache module; without one, this budget's own memory. */
  store?: SharedStore
  now?: () => number
  /** Told at most once a minute how many returns were answered without a look-up. */
  warn?: (message: string) => void
}

interface SessionCount {
  n: number
  /** When this session's minute ends (ms). */
  until: number
}

const MINUTE_MS = 60_000
/** Sessions this process remembers as spent for the rest of their minute (saves a cache read each). */
const MAX_SPENT_SESSIONS = 1_000

export class LookUpBudget {
  private readonly inFlight = new Map<string, Promise<Budgeted<unknown>>>()
  private readonly spent = new Map<string, number>()
  private readonly store: SharedStore
  private readonly now: () => number
  private running = 0
  private second = { at: -1, taken: 0 }
  private counting: Promise<unknown> = Promise.resolve()
  private capped = { since: -Infinity, count: 0 }

  constructor(private readonly config: LookUpBudgetConfig) {
    this.now = config.now ?? Date.now
    this.store = config.store ?? memoryStore(this.now)
  }

  /** `lookUp()` when the budget allows it, else why not; a running look-up for the session is shared. */
  run<T>(sessionId: string, lookUp: () => Promise<T>): Promise<Budgeted<T>> {
    const running = this.inFlight.get(sessionId)
    if (running) return running as Promise<Budgeted<T>>
    const attempt = this.attempt(sessionId, lookUp).finally(() => this.inFlight.delete(sessionId))
    this.inFlight.set(sessionId, attempt)
    return attempt
  }

  private async attempt<T>(sessionId: string, lookUp: () => Promise<T>): Promise<Budgeted<T>> {
    const { perSecond, concurrent } = this.config.limits
    const now = this.now()
    // Decided without awaiting anything, so a flood never queues: it is answered at once.
    if ((this.spent.get(sessionId) ?? 0) > now) return this.deny("session")
    if (this.running >= concurrent) return this.deny("concurrent")
    const at = Math.floor(now / 1000)
    if (this.second.at !== at) this.second = { at, taken: 0 }
    if (this.second.taken >= perSecond) return this.deny("overall")
    this.second.taken++
    this.running++
    try {
      const verdict = await this.serially(() => this.count(sessionId, at))
      if (verdict === "session" && this.second.at === at) this.second.taken-- // a spent session costs the others nothing
      if (verdict !== "admitted") return this.deny(verdict)
      return { admitted: true, value: await lookUp() }
    } finally {
      this.running--
    }
  }

  /** The shared counts: the session's minute, then the registration's second; both taken only together. */
  private async count(sessionId: string, at: number): Promise<CapReason | "admitted"> {
    const { perSessionPerMinute, perSecond } = this.config.limits
    const prefix = `altapay:return-look-ups:${this.config.name}`
    try {
      const now = this.now()
      const stored = await this.store.get<SessionCount>(`${prefix}:session:${sessionId}`)
      const session = stored && stored.until > now ? stored : { n: 0, until: now + MINUTE_MS }
      if (session.n >= perSessionPerMinute) {
        this.remember(sessionId, session.until)
        return "session"
      }
      const overall = (await this.store.get<{ n: number }>(`${prefix}:second:${at}`))?.n ?? 0
      if (overall >= perSecond) {
        if (this.second.at === at) this.second.taken = perSecond
        return "overall"
      }
      await this.store.set(`${prefix}:second:${at}`, { n: overall + 1 }, 2)
      await this.store.set(`${prefix}:session:${sessionId}`, { n: session.n + 1, until: session.until }, Math.max(1, Math.ceil((session.until - now) / 1000)))
      return "admitted"
    } catch {
      return "admitted"
    }
  }

  private serially<T>(job: () => Promise<T>): Promise<T> {
    const next = this.counting.then(job, job)
    this.counting = next.catch(() => undefined)
    return next
  }

  private remember(sessionId: string, until: number): void {
    this.spent.delete(sessionId)
    this.spent.set(sessionId, until)
    for (const [oldest] of this.spent) {
      if (this.spent.size <= MAX_SPENT_SESSIONS) break
      this.spent.delete(oldest)
    }
  }

  private deny(reason: CapReason): Budgeted<never> {
    const now = this.now()
    this.capped.count++
    if (now - this.capped.since >= MINUTE_MS) {
      this.config.warn?.(
        `AltaPay return look-ups of ${this.config.name} are over their budget (${reason}): ${this.capped.count} return(s) answered "unconfirmed" without asking AltaPay since the last such message. ` +
          "AltaPay's signed posts are not capped; its notification callback and the follow-up job still complete paid carts."
      )
      this.capped = { since: now, count: 0 }
    }
    return { admitted: false, reason }
  }
}

/**
 * A SharedStore in this budget's memory: values with a time to live, expired ones dropped from the
 * front as new ones arrive. Only admitted look-ups write (at most perSecond a second, each value
 * living at most a minute), so it holds about a minute of them.
 */
function memoryStore(now: () => number): SharedStore {
  const values = new Map<string, { value: unknown; until: number }>()
  return {
    get: async <T>(key: string) => {
      const entry = values.get(key)
      return entry && entry.until > now() ? (entry.value as T) : undefined
    },
    set: async (key, value, ttlSeconds) => {
      const at = now()
      values.delete(key)
      values.set(key, { value, until: at + ttlSeconds * 1000 })
      for (const [oldest, entry] of values) {
        if (entry.until > at) break
        values.delete(oldest)
      }
    },
    delete: async (key) => void values.delete(key),
  }
}
