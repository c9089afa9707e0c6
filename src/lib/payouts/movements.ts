/**
 * Medusa's captures and refunds of AltaPay payments, as the payouts module records them: the
 * money that should reach a payout. Read from the Payment module page by page (a store has many),
 * from a little before each registration was last read completely (all, for one never read);
 * the module ignores ones it has.
 */
import type { BigNumberInput, IPaymentModuleService, MedusaContainer, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MoneyMovementInput } from "../../modules/altapay-payouts/types"
import { toMinorUnits } from "../medusa-mapping/amounts"

/** A capture committed after a later one was recorded (a long transaction) is still read. */
export const MOVEMENT_OVERLAP_MS = 60 * 60 * 1000
const PAGE_SIZE = 500

interface MedusaPayment {
  id: string
  provider_id: string
  currency_code: string
  payment_collection_id?: string | null
  data?: Record<string, unknown> | null
}

interface MedusaMovement {
  id: string
  amount: BigNumberInput
  raw_amount?: BigNumberInput | null
  created_at: Date | string
  payment?: MedusaPayment | null
}

const PAYMENT_FIELDS = ["payment.id", "payment.provider_id", "payment.currency_code", "payment.payment_collection_id", "payment.data"]

/**
 * Every capture and refund of payments made with `providerIds` since `since` (all when null), in
 * batches, oldest first across both kinds. A run that fails part-way leaves the registrations'
 * cursor where it was, so the next run reads the same span again.
 */
export async function* medusaMovements(container: MedusaContainer, providerIds: string[], since: Date | null): AsyncGenerator<MoneyMovementInput[]> {
  if (providerIds.length === 0) return
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const filters = { ...(since ? { created_at: { $gte: since } } : {}), payment: { provider_id: providerIds } } as never
  const config = (skip: number) =>
    ({ select: ["id", "amount", "raw_amount", "created_at", ...PAYMENT_FIELDS], relations: ["payment"], skip, take: PAGE_SIZE, order: { created_at: "ASC", id: "ASC" } }) as never
  const captures = rows("capture", (skip) => payments.listCaptures(filters, config(skip)) as unknown as Promise<MedusaMovement[]>)
  const refunds = rows("refund", (skip) => payments.listRefunds(filters, config(skip)) as unknown as Promise<MedusaMovement[]>)
  let batch: Kinded[] = []
  for await (const movement of oldestFirst(captures, refunds)) {
    if (movement.payment && providerIds.includes(movement.payment.provider_id)) batch.push(movement)
    if (batch.length === PAGE_SIZE) {
      yield await toInputs(container, batch)
      batch = []
    }
  }
  if (batch.length > 0) yield await toInputs(container, batch)
}

type Kinded = MedusaMovement & { kind: "capture" | "refund" }

async function* rows(kind: Kinded["kind"], list: (skip: number) => Promise<MedusaMovement[]>): AsyncGenerator<Kinded> {
  for (let skip = 0; ; skip += PAGE_SIZE) {
    const page = await list(skip)
    for (const movement of page) yield { ...movement, kind }
    if (page.length < PAGE_SIZE) return
  }
}

/** Two streams each sorted by created_at, merged. */
async function* oldestFirst(a: AsyncGenerator<Kinded>, b: AsyncGenerator<Kinded>): AsyncGenerator<Kinded> {
  let [nextA, nextB] = await Promise.all([a.next(), b.next()])
  while (!nextA.done || !nextB.done) {
    if (nextB.done || (!nextA.done && time(nextA.value) <= time(nextB.value))) {
      yield nextA.value as Kinded
      nextA = await a.next()
    } else {
      yield nextB.value
      nextB = await b.next()
    }
  }
}

const time = (movement: Kinded): number => new Date(movement.created_at).getTime()

async function toInputs(container: MedusaContainer, batch: Kinded[]): Promise<MoneyMovementInput[]> {
  const orders = await ordersOf(
    container,
    batch.map((m) => m.payment!.payment_collection_id).filter((id): id is string => !!id)
  )
  return batch.flatMap((m) => toMovementInput(m.kind, m, orders))
}

/** Payment collection id -> its order's id (a collection of no order, e.g. a payment link not paid, has none). */
async function ordersOf(container: MedusaContainer, paymentCollectionIds: string[]): Promise<Map<string, string>> {
  if (paymentCollectionIds.length === 0) return new Map()
  const query = container.resolve<RemoteQueryFunction>(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order_payment_collection",
    fields: ["order_id", "payment_collection_id"],
    filters: { payment_collection_id: [...new Set(paymentCollectionIds)] },
  })
  return new Map((data as Array<{ order_id: string; payment_collection_id: string }>).map((link) => [link.payment_collection_id, link.order_id]))
}

function toMovementInput(kind: "capture" | "refund", movement: MedusaMovement, orders: Map<string, string>): MoneyMovementInput[] {
  const payment = movement.payment!
  const currency = payment.currency_code.toUpperCase()
  // Plain fields, seal or not: they only help match a funding line, they authorize nothing.
  const data = payment.data ?? {}
  const sent = sentRecord(data, kind, movement.id)
  // What the plugin sent AltaPay (a refund's running total is rounded, so one refund may differ from
  // its own rounding by a minor unit); Medusa's amount when the payment data has no record of it.
  const amountMinor = Number.isSafeInteger(sent?.amount_minor) ? (sent!.amount_minor as number) : toMinorUnits(movement.raw_amount ?? movement.amount, currency)
  if (amountMinor <= 0) return []
  return [
    {
      kind,
      medusaId: movement.id,
      paymentId: payment.id,
      orderId: (payment.payment_collection_id && orders.get(payment.payment_collection_id)) || null,
      providerId: payment.provider_id,
      reconciliationIdentifier: text(sent?.reconciliation_identifier),
      // A funding file's Payment column is the gateway's TransactionId (AltaPay's C# SDK reads it as
      // PaymentId and sends that as transaction_id), never the XML's PaymentId UUID.
      altapayPaymentId: text(data.transaction_id),
      altapayOrderId: text(data.order_id),
      currency,
      amountMinor,
      recordedAt: new Date(movement.created_at),
    },
  ]
}

/** The plugin's record of this capture or refund in the payment data: its reconciliation identifier and the amount sent. */
function sentRecord(data: Record<string, unknown>, kind: "capture" | "refund", medusaId: string): Record<string, unknown> | undefined {
  const records = data[kind === "capture" ? "captures" : "refunds"]
  if (!Array.isArray(records)) return undefined
  const idField = kind === "capture" ? "capture_id" : "refund_id"
  return records.find((r): r is Record<string, unknown> => !!r && typeof r === "object" && (r as Record<string, unknown>)[idField] === medusaId)
}

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null)
