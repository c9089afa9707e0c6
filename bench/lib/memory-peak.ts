/**
 * Peak RSS and heap of this process over a stretch of work, sampled (a timer, and the work's own
 * calls to sample()). A sampled heap peak counts garbage not collected yet, so it follows V8's
 * collection schedule as much as the work; `live` is the heap after a full GC in the middle of each
 * file: what the import holds while it runs.
 */
export interface Peak {
  rss: number
  heap: number
  live: number
}

export class MemoryPeak {
  private peak: Peak = { rss: 0, heap: 0, live: 0 }
  private timer: NodeJS.Timeout | undefined

  sample = (): void => {
    const { rss, heapUsed } = process.memoryUsage()
    if (rss > this.peak.rss) this.peak.rss = rss
    if (heapUsed > this.peak.heap) this.peak.heap = heapUsed
  }

  /** The heap after a full GC, now (costs a collection: once per file). */
  live(): void {
    this.sample()
    const gc = (globalThis as { gc?: () => void }).gc
    if (!gc) throw new Error("run with --expose-gc (bench/run.js does this)")
    gc()
    this.peak.live = Math.max(this.peak.live, process.memoryUsage().heapUsed)
  }

  /** Starts afresh, sampling every `intervalMs` while the event loop is free. */
  start(intervalMs = 20): void {
    this.stop()
    this.peak = { rss: 0, heap: 0, live: 0 }
    this.sample()
    this.timer = setInterval(this.sample, intervalMs)
    this.timer.unref()
  }

  stop(): Peak {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    this.sample()
    return { ...this.peak }
  }
}

/**
 * Passes `entries` through, sampling memory every `every` entries (the timer cannot run while a
 * parse keeps the loop busy) and the live heap at entry `middle`.
 */
export async function* sampled<T>(entries: AsyncIterable<T>, peak: MemoryPeak, middle: number, every = 250): AsyncGenerator<T> {
  let n = 0
  for await (const entry of entries) {
    if (++n % every === 0) peak.sample()
    if (n === middle) peak.live()
    yield entry
  }
}
