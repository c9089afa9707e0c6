/**
 * What the admin's AltaPay page shows of the posts AltaPay sent and the follow-up jobs' runs, kept
 * in the shared store (Medusa's cache module: every server writes and reads the same; without one,
 * this process). Bounded by construction: per registration the last post received and the refusals
 * of the last day in hourly counts (with the last few, time and reason only); per job its last run.
 * Nothing of a post's body is kept: it may carry card and customer details.
 *
 * A hook never fails its caller: a callback or a job must not break because the health note could
 * not be written (the note is a view, the logs keep the trace).
 */
import type { Lock, SharedStore } from "../scale-out/shared-state"

/** Where a post from AltaPay arrived: the notification callback or the customer's return. */
export type PostRoad = "callback" | "return"

/** Why a post was refused: its signature, its source address, or a payment session Medusa does not have. */
export type RefusalReason = "signature" | "source" | "unknown-session"

export const REFUSAL_REASONS: readonly RefusalReason[] = ["signature", "source", "unknown-session"]

export interface ReceivedPost {
  road: PostRoad
  /** When it reached this store, ms since the epoch. */
  at: number
  /** How long after AltaPay signed it (its signature's `t`); null when it was not signed. */
  lateMs: number | null
}

export interface Refusal {
  road: PostRoad
  reason: RefusalReason
  at: number
}

export interface PostHealth {
  lastReceived: ReceivedPost | null
  /** Refusals in the last 24 hours, per reason. */
  refusedLastDay: Record<RefusalReason, number>
  /** The latest refusals, newest first (at most RECENT_REFUSALS). */
  recentRefusals: Refusal[]
}

export interface JobRun {
  /** What the job follows up, as its log line names it ("payment sessions", "payouts"). */
  job: string
  at: number
  /** Its log line: what it checked, found and did. */
  line: string
  counts: Record<string, number>
  /** It stopped early: AltaPay could not be reached. */
  stopped: boolean
}

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS
const RECENT_REFUSALS = 10
/** Longer than the day the page shows, so a quiet day still shows when the last post came. */
const TTL_SECONDS = 30 * 24 * 60 * 60

interface RefusalBook {
  /** Hour start (ms) -> count per reason; only the last 24 hours are kept. */
  hours: Record<string, Partial<Record<RefusalReason, number>>>
  recent: Refusal[]
}

const postKey = (providerId: string) => `altapay:health:${providerId}:post`
const refusalKey = (providerId: string) => `altapay:health:${providerId}:refused`
const JOBS_KEY = "altapay:health:jobs"

/** Keyed by Medusa's provider id (`pp_altapay_card`), as the routes name a registration. */
export class HealthRecorder {
  /** `lock`: one writer of a read-modify-write at a time (across servers with a locking module). */
  constructor(
    private readonly store: SharedStore,
    private readonly lock: Lock,
    private readonly now: () => number = Date.now
  ) {}

  /** A post AltaPay's signature (or, unsigned, nothing) vouched for reached the store. */
  received(providerId: string, road: PostRoad, signedAtMs: number | undefined, arrivedAtMs = this.now()): Promise<void> {
    const post: ReceivedPost = { road, at: arrivedAtMs, lateMs: signedAtMs === undefined ? null : Math.max(0, arrivedAtMs - signedAtMs) }
    return quietly(() => this.store.set(postKey(providerId), post, TTL_SECONDS))
  }

  refused(providerId: string, road: PostRoad, reason: RefusalReason): Promise<void> {
    const at = this.now()
    return quietly(() =>
      this.lock(refusalKey(providerId), async () => {
        const book = (await this.store.get<RefusalBook>(refusalKey(providerId))) ?? { hours: {}, recent: [] }
        const hour = String(Math.floor(at / HOUR_MS) * HOUR_MS)
        const hours = Object.fromEntries(Object.entries(book.hours).filter(([start]) => withinDay(Number(start), at)))
        hours[hour] = { ...hours[hour], [reason]: (hours[hour]?.[reason] ?? 0) + 1 }
        const recent = [{ road, reason, at }, ...book.recent].slice(0, RECENT_REFUSALS)
        await this.store.set<RefusalBook>(refusalKey(providerId), { hours, recent }, TTL_SECONDS)
      })
    )
  }

  /** A follow-up job's run: replaces its previous one. */
  jobRan(job: string, summary: { line: string; counts: Record<string, number>; stopped: boolean }): Promise<void> {
    const run: JobRun = { job, at: this.now(), line: summary.line, counts: summary.counts, stopped: summary.stopped }
    return quietly(() =>
      this.lock(JOBS_KEY, async () => {
        const runs = (await this.store.get<JobRun[]>(JOBS_KEY)) ?? []
        await this.store.set(JOBS_KEY, [...runs.filter((r) => r.job !== job), run], TTL_SECONDS)
      })
    )
  }

  async posts(providerId: string): Promise<PostHealth> {
    const now = this.now()
    const [last, book] = await Promise.all([this.store.get<ReceivedPost>(postKey(providerId)), this.store.get<RefusalBook>(refusalKey(providerId))])
    const refusedLastDay = Object.fromEntries(REFUSAL_REASONS.map((r) => [r, 0])) as Record<RefusalReason, number>
    for (const [start, counts] of Object.entries(book?.hours ?? {})) {
      if (!withinDay(Number(start), now)) continue
      for (const reason of REFUSAL_REASONS) refusedLastDay[reason] += counts[reason] ?? 0
    }
    return { lastReceived: last ?? null, refusedLastDay, recentRefusals: (book?.recent ?? []).filter((r) => r.at > now - DAY_MS) }
  }

  async jobs(): Promise<JobRun[]> {
    return (await this.store.get<JobRun[]>(JOBS_KEY)) ?? []
  }
}

/** An hour's count belongs to the last day while any of the hour is within it (so at most 25 hours count). */
const withinDay = (hourStart: number, now: number): boolean => hourStart + HOUR_MS > now - DAY_MS

async function quietly(write: () => Promise<void>): Promise<void> {
  try {
    await write()
  } catch {
    // The page shows less; the callback or job goes on (it logs what happened itself).
  }
}

/** The signature's `t` in ms, from an `AltaPay-Signature` header already verified; undefined without one. */
export function signedAt(signatureHeader: string | undefined): number | undefined {
  const t = signatureHeader ? /(?:^|[;,])\s*t=(\d{1,12})\s*(?:[;,]|$)/.exec(signatureHeader)?.[1] : undefined
  return t === undefined ? undefined : Number(t) * 1000
}
