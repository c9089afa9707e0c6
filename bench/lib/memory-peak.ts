/** Peak RSS and heap of this process over a stretch of work, sampled (a timer, and the work's own calls to sample()). */
export interface Peak {
  rss: number
  heap: number
}

export class MemoryPeak {
  private peak: Peak = { rss: 0, heap: 0 }
  private timer: NodeJS.Timeout | undefined

  sample = (): void => {
    const { rss, heapUsed } = process.memoryUsage()
    if (rss > this.peak.rss) this.peak.rss = rss
    if (heapUsed > this.peak.heap) this.peak.heap = heapUsed
  }

  /** Starts afresh, sampling every `intervalMs` while the event loop is free. */
  start(intervalMs = 20): void {
    this.stop()
    this.peak = { rss: 0, heap: 0 }
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

/** Passes `entries` through, sampling memory every `every` entries (the timer cannot run while a parse keeps the loop busy). */
export async function* sampled<T>(entries: AsyncIterable<T>, peak: MemoryPeak, every = 250): AsyncGenerator<T> {
  let n = 0
  for await (const entry of entries) {
    if (++n % every === 0) peak.sample()
    yield entry
  }
}
