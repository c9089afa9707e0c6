/** What every handler can reach: configuration, the in-memory world, tokens, ledger, faults, clock. */
import type { IncomingHttpHeaders } from "node:http"
import type { ActiveFault, FaultBook } from "./faults"
import type { FundingBook } from "./fundings/fundings"
import type { Ledger, LedgerAuth, LedgerEffect } from "./ledger"
import type { Store } from "./state"
import type { TokenService } from "./checkout/tokens"

/**
 * How the customer comes back after paying (callbacks/return-delivery.ts). Declared here, with the
 * config that holds it, so env.ts needs nothing from the return's code, which itself needs env.ts.
 */
export type ReturnMode = "server-post" | "browser-redirect"
export const RETURN_MODES: readonly ReturnMode[] = ["server-post", "browser-redirect"]

export interface SandboxConfig {
  username: string
  password: string
  callbackSecret?: string
  autoCallbacks: boolean
  keepReconciliationIdentifiers: boolean
  /** Accept any orderId of 1-100 characters, not only shop_orderid's [a-zA-Z0-9-]{1,100}. */
  legacyShopOrderIds: boolean
  /** How the customer comes back after paying (return-delivery.ts); "server-post" is AltaPay's documented way. */
  returnMode: ReturnMode
  /** The Klarna invoice terminal is offered (state.ts INVOICE_METHOD), with its capture period. */
  invoiceTerminal?: { captureWithinDays: number }
  /** The card terminal surcharges: a card payment reserves this percent more (SurchargeAmount). */
  surchargePercent?: number
}

export interface SandboxEnv {
  readonly config: SandboxConfig
  readonly store: Store
  readonly tokens: TokenService
  readonly ledger: Ledger
  readonly faults: FaultBook
  /** Funding files (payouts) and the settlement of captures and refunds into them. */
  readonly fundings: FundingBook
  /** Awaited before each customer return is posted (Sandbox.holdReturns): a test's "callback first". */
  beforeReturn?: (paymentId: string) => Promise<void>
  /** Public origin, e.g. http://127.0.0.1:8787; set once the server listens. */
  url: string
  now(): number
}

/** One request as handlers see it; handlers fill `auth`, `params` and `effects` for the ledger. */
export interface Exchange {
  env: SandboxEnv
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  rawBody: string
  /** Set only for faults a handler must act on itself (the gateway's "open"). */
  fault?: ActiveFault
  auth: LedgerAuth
  params: Record<string, unknown>
  effects: LedgerEffect[]
}
