/**
 * Timing helpers. The machine is shared, so figures are ratios of variants measured in the same
 * run, in interleaved rounds (the order rotates each round), summarised by the median round.
 */

import { readFileSync } from "node:fs"

export type Op = () => Promise<unknown>

export const nowNs = (): bigint => process.hrtime.bigint()
export const nsToMs = (ns: bigint | number): number => Number(ns) / 1e6

const MAIN_THREAD_STAT = `/proc/self/task/${process.pid}/schedstat`

/**
 * CPU time of this process's main thread, ns: what sets an event loop's queue. Linux's schedstat;
 * elsewhere the whole process's (which adds the compiler's and the collector's helper threads).
 */
export function mainThreadCpuNs(): number {
  try {
    return Number(readFileSync(MAIN_THREAD_STAT, "utf8").split(" ")[0])
  } catch {
    const { user, system } = process.cpuUsage()
    return (user + system) * 1000
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Nearest-rank percentile of `values` (p in 0..100). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]
}

/** Latencies (ms) of `count` calls made one after another. */
export async function sequentialLatencies(count: number, op: Op): Promise<number[]> {
  const out = new Array<number>(count)
  for (let i = 0; i < count; i++) {
    const started = nowNs()
    await op()
    out[i] = nsToMs(nowNs() - started)
  }
  return out
}

/** Operations per second for `total` calls kept `concurrency` in flight. */
export async function throughput(total: number, concurrency: number, op: Op): Promise<number> {
  let started = 0
  const worker = async (): Promise<void> => {
    while (started < total) {
      started++
      await op()
    }
  }
  const t0 = nowNs()
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker))
  return total / (nsToMs(nowNs() - t0) / 1000)
}

/** Microseconds of the main thread's CPU per call, for `count` calls of `op` kept `concurrency` in flight (1: one after another). */
export async function mainThreadCpuPerCall(count: number, concurrency: number, op: () => unknown): Promise<number> {
  const before = mainThreadCpuNs()
  await throughput(count, concurrency, async () => op())
  return (mainThreadCpuNs() - before) / 1000 / count
}

/** Latencies (ms) of `total` calls kept `concurrency` in flight (1: one after another). */
export async function concurrentLatencies(total: number, concurrency: number, op: Op): Promise<number[]> {
  const out: number[] = []
  let started = 0
  const worker = async (): Promise<void> => {
    while (started < total) {
      started++
      const t0 = nowNs()
      await op()
      out.push(nsToMs(nowNs() - t0))
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker))
  return out
}

/** Runs `round(variant)` for every variant, `rounds` times, rotating which variant goes first. */
export async function interleaved<V extends string, R>(variants: readonly V[], rounds: number, round: (variant: V) => Promise<R>): Promise<Record<V, R[]>> {
  const results = Object.fromEntries(variants.map((v) => [v, [] as R[]])) as Record<V, R[]>
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(i + r) % variants.length]
      results[variant].push(await round(variant))
    }
  }
  return results
}

export interface LatencySummary {
  p50: number
  p99: number
}

export const summarise = (latencies: number[]): LatencySummary => ({ p50: percentile(latencies, 50), p99: percentile(latencies, 99) })

/** Median over rounds of the per-round ratio a/b. */
export function medianRatio(a: number[], b: number[]): number {
  return median(a.map((value, i) => value / b[i]))
}
