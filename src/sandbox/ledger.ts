/**
 * Every request the sandbox received and what it did, for tests to assert on ("one refund effect",
 * "two authenticate calls"). Nothing credential-like is ever stored: no Authorization header, no
 * passwords, tokens, secrets or checksums.
 */
import type { FaultKind } from "./faults"

export type LedgerApi = "checkout" | "gateway" | "hosted" | "callback"
export type LedgerAuth = "basic" | "bearer:MERCHANT" | "bearer:CUSTOMER" | "none" | "invalid"

export interface LedgerEffect {
  type: "capture" | "refund" | "release" | "authorize" | "decline"
  transactionId: string
  amountMinor: number
  currency: string
  reconciliationIdentifier?: string
  /** Gateway Result (`Success`, `Failed`, `Fail`, `Error`, `Open`) or the outcome of a payment. */
  result: string
}

export interface LedgerEntry {
  seq: number
  at: number
  api: LedgerApi
  method: string
  path: string
  operation: string
  auth: LedgerAuth
  params: Record<string, unknown>
  status: number
  fault?: FaultKind
  /** The main money movement of the request (the first of `effects`). */
  effect?: LedgerEffect
  effects?: LedgerEffect[]
  /** Callback deliveries only: target URL without its query string. */
  url?: string
  error?: string
}

export type LedgerDraft = Omit<LedgerEntry, "seq">

const SECRET_KEY = /pass|secret|token|authori[sz]ation|checksum|signature|api[-_]?key|cvc|cvv|card_?number|^pan$/i
const SECRET_VALUE = /^(basic|bearer)\s|^eyJ[\w-]+\.[\w-]+\.[\w-]*$/i

/** Deep copy of `value` with credential-like keys dropped and credential-looking strings masked. */
export function redact(value: unknown): unknown {
  if (typeof value === "string") return SECRET_VALUE.test(value.trim()) ? "[redacted]" : value
  if (Array.isArray(value)) return value.map(redact)
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      if (!SECRET_KEY.test(key)) out[key] = redact(inner)
    }
    return out
  }
  return value
}

export class Ledger {
  private entries: LedgerEntry[] = []
  private seq = 0

  /** `onRecord` sees a copy of each entry as it is recorded (the CLI prints one line per request). */
  constructor(private readonly onRecord?: (entry: LedgerEntry) => void) {}

  record(draft: LedgerDraft): LedgerEntry {
    const entry: LedgerEntry = { ...draft, seq: ++this.seq, params: redact(draft.params) as Record<string, unknown> }
    if (entry.effects && entry.effects.length > 0) entry.effect = entry.effects[0]
    else delete entry.effects
    this.entries.push(entry)
    try {
      this.onRecord?.(structuredClone(entry))
    } catch {
      // A listener (the CLI's printer) never breaks the request it watches.
    }
    return entry
  }

  /** What a test made the sandbox's acquirer do (conclude, settle): recorded like a request to the hosted API. */
  simulated(at: number, path: string, operation: string, params: Record<string, unknown>, effects: LedgerEffect[]): LedgerEntry {
    return this.record({ at, api: "hosted", method: "SIMULATE", path, operation, auth: "none", params, status: 200, effects })
  }

  list(): LedgerEntry[] {
    return structuredClone(this.entries)
  }

  clear(): void {
    this.entries = []
  }
}
