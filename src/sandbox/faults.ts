/**
 * Failures a test can switch on at run time, matched against the request path. Each fault fires
 * `times` times (default once), first-added first.
 */

export type FaultKind = "latency" | "500" | "503" | "429" | "reset" | "truncate" | "html" | "malformed-json" | "open" | "lost-answer" | "expire-token" | "error-code"

export interface FaultSpec {
  /** Substring of, or pattern for, the request path, e.g. "refundCapturedReservation" or /authenticate/. */
  route?: string | RegExp
  kind: FaultKind
  /** How many matching requests it hits; Infinity for all of them. */
  times?: number
  /** Delay for "latency" (default 100 ms). */
  ms?: number
  /** Let this many matching requests through untouched first (e.g. fail only the second look-up). */
  skip?: number
}

export interface ActiveFault {
  kind: FaultKind
  ms: number
}

export interface Faults {
  add(fault: FaultSpec): void
  clear(): void
  /** Faults not yet used up, for inspection. */
  pending(): FaultSpec[]
}

export class FaultBook implements Faults {
  private faults: Array<FaultSpec & { left: number; toSkip: number }> = []

  add(fault: FaultSpec): void {
    const left = fault.times ?? 1
    if (!(left > 0)) throw new RangeError("fault times must be greater than zero")
    this.faults.push({ ...fault, left, toSkip: fault.skip ?? 0 })
  }

  clear(): void {
    this.faults = []
  }

  pending(): FaultSpec[] {
    return this.faults.map(({ left, toSkip, ...spec }) => ({ ...spec, times: left, skip: toSkip }))
  }

  /** Consumes one use of the first fault matching `path`. */
  take(path: string): ActiveFault | undefined {
    const index = this.faults.findIndex((f) => matches(f.route, path))
    if (index < 0) return undefined
    const fault = this.faults[index]
    if (fault.toSkip > 0) {
      fault.toSkip -= 1
      return undefined
    }
    fault.left -= 1
    if (fault.left <= 0) this.faults.splice(index, 1)
    return { kind: fault.kind, ms: fault.ms ?? 100 }
  }
}

function matches(route: string | RegExp | undefined, path: string): boolean {
  if (route === undefined) return true
  if (typeof route === "string") return path.includes(route)
  route.lastIndex = 0
  return route.test(path)
}
