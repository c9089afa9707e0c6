/**
 * What every figure needs: providers wired to the sandbox process, captured payments with money
 * left to refund, the exact bytes the provider sends (to replay them bare), and a bare undici Pool.
 */
import type { Logger } from "@medusajs/framework/types"
import { Pool, type Dispatcher } from "undici"
import { proportionalAdjustmentLine, type AltaPayClient, type OrderLine } from "../../src/altapay"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { parseAltaPayOptions, type AltaPayOptionsInput } from "../../src/lib/registrations/options"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { sharedAltaPayClient } from "../../src/lib/registrations/shared-client"
import { PASSWORD, USER, type RemoteSandbox } from "./sandbox-process"

const quiet = () => undefined
export const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet, log: quiet } as unknown as Logger

/** Ids of one width, so a replayed request has exactly the provider's byte count. */
let counter = 0
export const fixedId = (prefix: string): string => `${prefix}_${String(counter++).padStart(10, "0")}`

/** A small cart, as the plugin's store route hands it to initiatePayment (context.altapay.order_lines). */
export const CART_LINES: OrderLine[] = [
  { itemId: "sku-shirt", description: "T-shirt, blue, M", quantity: 2, unitPriceMinor: 12000, taxAmountMinor: 6000, taxPercent: 25, goodsType: "item" },
  { itemId: "sku-mug", description: "Mug", quantity: 1, unitPriceMinor: 8000, taxAmountMinor: 2000, taxPercent: 25, goodsType: "item" },
  { itemId: "shipping", description: "Standard shipping", quantity: 1, unitPriceMinor: 3920, taxAmountMinor: 980, taxPercent: 25, goodsType: "shipment" },
]
/** 449.00 DKK: the lines' total. */
export const CART_TOTAL = 449

export type Flow = "storefront" | "redirect"

export function providerOptions(sandbox: RemoteSandbox, flow: Flow, extra: Partial<AltaPayOptionsInput> = {}): AltaPayOptionsInput {
  return { checkoutUrl: sandbox.url, gatewayUrl: sandbox.url, username: USER, password: PASSWORD, backendUrl: "http://127.0.0.1:9", flow, allowInsecureUrls: true, ...extra }
}

export function createProvider(options: AltaPayOptionsInput): AltaPayProviderService {
  return new AltaPayProviderService({ logger }, options as never)
}

/** The client the provider uses (one shared client per API user and settings, see src/lib/registrations/shared-client.ts). */
export function clientOf(options: AltaPayOptionsInput): AltaPayClient {
  const parsed = parseAltaPayOptions(options)
  if ("problems" in parsed) throw new Error(parsed.problems.join("; "))
  return sharedAltaPayClient(parsed.options)
}

export async function initiate(provider: AltaPayProviderService, sessionId = fixedId("payses")): Promise<AltaPayPaymentData> {
  const out = await provider.initiatePayment({
    amount: CART_TOTAL,
    currency_code: "dkk",
    data: { session_id: sessionId },
    context: { idempotency_key: sessionId, altapay: { order_lines: CART_LINES } } as never,
  })
  return out.data as unknown as AltaPayPaymentData
}

/** Initiated, paid at the sandbox and authorized through the provider (not captured). */
export async function authorizedPayment(provider: AltaPayProviderService, sandbox: RemoteSandbox): Promise<AltaPayPaymentData> {
  const data = await initiate(provider)
  await sandbox.simulatePayment(data.altapay_session_id)
  return (await provider.authorizePayment({ data: data as never, context: { idempotency_key: data.order_id } })).data as unknown as AltaPayPaymentData
}

/** Initiated, paid at the sandbox, authorized and captured through the provider. */
export async function capturedPayment(provider: AltaPayProviderService, sandbox: RemoteSandbox): Promise<AltaPayPaymentData> {
  const authorized = await authorizedPayment(provider, sandbox)
  return (await provider.capturePayment({ data: authorized as never, context: { idempotency_key: fixedId("capt") } })).data as unknown as AltaPayPaymentData
}

/** `count` payments made by `make`, `concurrency` at a time. */
export async function paymentsMadeBy(
  make: (provider: AltaPayProviderService, sandbox: RemoteSandbox) => Promise<AltaPayPaymentData>,
  count: number,
  concurrency: number,
  provider: AltaPayProviderService,
  sandbox: RemoteSandbox
): Promise<AltaPayPaymentData[]> {
  const out: AltaPayPaymentData[] = []
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++
      out.push(await make(provider, sandbox))
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return out
}

/** `count` authorized payments, handed out once each (AltaPay captures a payment once; the door keeps attempts per payment). */
export async function authorizedSupply(count: number, provider: AltaPayProviderService, sandbox: RemoteSandbox): Promise<() => AltaPayPaymentData> {
  const authorized = await paymentsMadeBy(authorizedPayment, count, 32, provider, sandbox)
  let next = 0
  return () => {
    if (next >= authorized.length) throw new Error(`bench: ran out of authorized payments (${authorized.length} prepared)`)
    return authorized[next++]
  }
}

/** The bytes the provider sends to capture `payment`, under a capture key of fixed width (for `substitute`). */
export async function recordedCapture(provider: AltaPayProviderService, payment: AltaPayPaymentData): Promise<{ request: WireRequest; key: string }> {
  const key = fixedId("capt")
  const [request] = await recordWire(() => provider.capturePayment({ data: payment as never, context: { idempotency_key: key } }))
  return { request, key }
}

export function capturedPayments(count: number, concurrency: number, provider: AltaPayProviderService, sandbox: RemoteSandbox): Promise<AltaPayPaymentData[]> {
  return paymentsMadeBy(capturedPayment, count, concurrency, provider, sandbox)
}

/**
 * What Medusa keeps of each payment: the data the provider returned from its last hook, which
 * Medusa stores and passes to the next one (a refund gets the data the previous refund returned).
 */
export function medusaCopies(): { of: (payment: AltaPayPaymentData) => AltaPayPaymentData; keep: (data: unknown) => void } {
  const latest = new Map<string, AltaPayPaymentData>()
  return {
    of: (payment) => latest.get(payment.transaction_id!) ?? payment,
    keep: (data) => {
      const kept = data as AltaPayPaymentData
      latest.set(kept.transaction_id!, kept)
    },
  }
}

/** A provider refund of 1 DKK of `payment`, made as Medusa makes it (with Medusa's copy of its data). */
export function refundAsMedusa(provider: AltaPayProviderService, copies: ReturnType<typeof medusaCopies>) {
  return async (payment: AltaPayPaymentData, key: string = fixedId("ref")): Promise<void> => {
    const { data } = await provider.refundPayment({ data: copies.of(payment) as never, amount: 1, context: { idempotency_key: key } })
    copies.keep(data)
  }
}

/** What the refund figures share: a provider and its client, a bare Pool, the payments in turn, a 1 DKK refund line. */
export function refundRig(sandbox: RemoteSandbox, payments: AltaPayPaymentData[]) {
  const options = providerOptions(sandbox, "storefront")
  // Every variant takes the next payment in turn, so all see the same refund history sizes.
  let turn = 0
  const nextPayment = (): AltaPayPaymentData => payments[turn++ % payments.length]
  const provider = createProvider(options)
  const client = clientOf(options)
  const refund = refundAsMedusa(provider, medusaCopies())
  const line = proportionalAdjustmentLine(payments[0].order_lines, 100, { itemId: "refund", description: "Refund" })
  return {
    provider,
    client,
    pool: barePool(sandbox.url),
    nextPayment,
    /** The provider's refund of 1 DKK of the next payment (look-up + refund), with Medusa's copy of its data. */
    providerRefund: () => refund(nextPayment()),
    /** The client's refund of 1.00 DKK of `payment` (default: the next), with reconciliation key `key`. */
    clientRefund: (payment: AltaPayPaymentData = nextPayment(), key: string = fixedId("ref")) =>
      client.gateway.refundCapturedReservation({
        transactionId: payment.transaction_id!,
        amountMinor: 100,
        currency: "DKK",
        reconciliationIdentifier: `medusa-refund-${key}`,
        orderLines: line,
      }),
  }
}

/** One request as undici's Pool received it from the client. */
export interface WireRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

/** Runs `job` and returns every request the client handed to undici meanwhile, bytes included. */
export async function recordWire(job: () => Promise<unknown>): Promise<WireRequest[]> {
  // Pool.request dispatches too, so every request passes here once.
  const proto = Pool.prototype as unknown as { dispatch: (this: Pool, opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => boolean }
  const original = proto.dispatch
  const seen: WireRequest[] = []
  proto.dispatch = function (this: Pool, opts, handler) {
    seen.push({
      method: String(opts.method),
      path: opts.path,
      headers: { ...(opts.headers as Record<string, string>) },
      ...(typeof opts.body === "string" ? { body: opts.body } : {}),
    })
    return original.call(this, opts, handler)
  }
  try {
    await job()
  } finally {
    proto.dispatch = original
  }
  return seen
}

/** `request` with every occurrence of each key replaced by its value (values keep the key's length). */
export function substitute(request: WireRequest, replacements: Record<string, string>): WireRequest {
  const swap = (text: string): string => {
    let out = text
    for (const [from, to] of Object.entries(replacements)) {
      if (from.length !== to.length) throw new Error(`replacement ${to} does not keep the length of ${from}`)
      out = out.split(from).join(to).split(encodeURIComponent(from)).join(encodeURIComponent(to))
    }
    return out
  }
  return { ...request, path: swap(request.path), ...(request.body !== undefined ? { body: swap(request.body) } : {}) }
}

/** A bare keep-alive Pool with the client's settings, sending pre-built requests. */
export function barePool(origin: string): Pool {
  return new Pool(origin, { connections: 64, pipelining: 1, keepAliveTimeout: 4_000 })
}

export async function sendBare(pool: Pool, request: WireRequest): Promise<string> {
  const res = await pool.request({ method: request.method as Dispatcher.HttpMethod, path: request.path, headers: request.headers, body: request.body })
  const text = await res.body.text()
  if (res.statusCode !== 200) throw new Error(`bare ${request.method} ${request.path.split("?")[0]} answered ${res.statusCode}: ${text.slice(0, 200)}`)
  return text
}
