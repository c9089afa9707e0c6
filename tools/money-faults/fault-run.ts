/**
 * The money fault run: many random payments through Medusa's own Payment module (on Postgres) and
 * the provider, against the sandbox over HTTP, with random faults on every road that moves money
 * (captures, refunds, releases, a customer's charge on a saved card at authorization, a merchant's
 * charge on a saved card): lost answers, timeouts (AltaPay still working after the plugin gave up),
 * 503s, resets, duplicate authorizations (two posts for one payment), provider restarts, and a
 * merchant who retries every failed step (Medusa gives each retry a new key, and deletes the capture
 * or refund row of a try that threw). At the end AltaPay's record and Medusa's are compared payment
 * by payment. Used by integration-tests/providers/money-door.spec.ts (which asserts the counts are 0)
 * and printed there.
 */
import type { IPaymentModuleService, PaymentDTO } from "@medusajs/framework/types"
import type { AltaPayClient, GatewayTransaction, OrderLine } from "../../src/altapay"
import { chargeAtAltaPay } from "../../src/lib/saved-cards/merchant-charge/at-altapay"
import { moneyDoorFor } from "../../src/lib/money-door/door"
import type { ScaleOut } from "../../src/lib/scale-out/shared-state"
import type { Sandbox } from "../../src/sandbox"
import type { FaultKind, FaultSpec } from "../../src/sandbox/faults"

export interface FaultRunOptions {
  service: IPaymentModuleService
  sandbox: Sandbox
  /** A client on the same API user, for the merchant-charge road and the final comparison. */
  client: AltaPayClient
  providerId: string
  /** The provider's cache and locks, for the merchant-charge road (which runs outside the provider). */
  scaleOut: Pick<ScaleOut, "store" | "paymentLock">
  headersTimeoutMs: number
  payments: number
  concurrency: number
  seed: number
  /** Chance of a fault before each try of a money step. */
  faultRate: number
  /** Chance of a provider restart before each step. */
  restartRate: number
  /** Rebuilds the provider as a new process would (its memory gone; Medusa's cache kept). */
  restart(): void
  /** Saved cards the run may pay with: a customer's card on an AltaPay agreement (see savedCardsFor). */
  savedCards: Array<{ id: string; customerId: string; agreementId: string }>
  /** Tells the store which customer a payment collection's cart belongs to (the provider reads it at the moment of money). */
  cartOf(collectionId: string, customerId: string): void
  progress?: (line: string) => void
}

export interface FaultRunReport {
  payments: number
  /** Steps the merchant (or Medusa) asked for: authorizations, captures, refunds, releases, merchant charges. */
  steps: number
  /** Calls into Medusa/the plugin, retries included. */
  tries: number
  faults: Partial<Record<FaultKind, number>>
  restarts: number
  duplicateAuthorizations: number
  savedCardPayments: number
  merchantCharges: number
  /** AltaPay moved the money of one step more than once. */
  movedTwice: number
  /** AltaPay moved money Medusa (or the merchant charge's caller) has no record of. */
  movedWithoutRecord: number
  /** Medusa records money AltaPay never moved. */
  recordedWithoutMoney: number
  /** Steps still failing after every retry. */
  gaveUp: number
  /** The first problems found, for the failure message. */
  problems: string[]
}

const MONEY_FAULTS: FaultKind[] = ["lost-answer", "reset", "503", "500", "latency", "truncate"]
const MAX_TRIES = 40

/** Deterministic randomness (mulberry32), so a failing run can be replayed with its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const major = (minor: number) => minor / 100

export async function runMoneyFaults(options: FaultRunOptions): Promise<FaultRunReport> {
  const rand = random(options.seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]
  const report: FaultRunReport = {
    payments: 0,
    steps: 0,
    tries: 0,
    faults: {},
    restarts: 0,
    duplicateAuthorizations: 0,
    savedCardPayments: 0,
    merchantCharges: 0,
    movedTwice: 0,
    movedWithoutRecord: 0,
    recordedWithoutMoney: 0,
    gaveUp: 0,
    problems: [],
  }
  const problem = (line: string) => {
    if (report.problems.length < 30) report.problems.push(line)
  }
  const { service, sandbox } = options

  const maybeFault = (routes: readonly string[]) => {
    if (routes.length === 0) return
    // One fault at a time per worker: faults wait in the sandbox for a matching request, and must
    // not pile up on a route faster than retries use them.
    if (rand() >= options.faultRate || sandbox.faults.pending().length >= options.concurrency) return
    // Every kind once before any is drawn at random, so a short run (60 payments on the oldest
    // Medusa) exercises them all whatever order its concurrent payments draw in.
    const kind = MONEY_FAULTS.find((k) => report.faults[k] === undefined) ?? pick(MONEY_FAULTS)
    const route = pick(kind === "lost-answer" && routes.some((r) => r !== "payments") ? routes.filter((r) => r !== "payments") : routes)
    // Latency past the answer timeout: AltaPay finishes the request after the plugin gave up on it.
    const spec: FaultSpec = { route, kind, ...(kind === "latency" ? { ms: Math.round(options.headersTimeoutMs * 1.5) } : {}) }
    if (kind === "lost-answer" && route === "payments") spec.kind = "503"
    sandbox.faults.add(spec)
    report.faults[spec.kind] = (report.faults[spec.kind] ?? 0) + 1
  }
  const maybeRestart = () => {
    if (rand() >= options.restartRate) return
    options.restart()
    report.restarts += 1
  }

  /** A merchant's step: tried until it works, waiting when told to, a new try (and key) each time. */
  async function step<T>(what: string, routes: readonly string[], run: () => Promise<T>): Promise<T | undefined> {
    report.steps += 1
    let last: unknown
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      maybeRestart()
      maybeFault(routes)
      report.tries += 1
      try {
        return await run()
      } catch (error) {
        last = error
        const wait = /Try again in (\d+) s/.exec(error instanceof Error ? error.message : String(error))
        await sleep(wait ? Number(wait[1]) * 1000 : Math.min(50 * (attempt + 1), 1_000))
      }
    }
    report.gaveUp += 1
    problem(`${what}: still failing after ${MAX_TRIES} tries: ${last instanceof Error ? last.message : String(last)}`)
    return undefined
  }

  interface Planned {
    payment?: PaymentDTO
    transactionId?: string
    /** Steps that completed: what Medusa should show. */
    captured: number[]
    refunded: number[]
    released: boolean
    savedCard?: { sessionId: string; agreementId: string }
  }
  const done: Planned[] = []
  const merchantCharges: Array<{ collectionId: string; agreementId: string; amountMinor: number; recorded: GatewayTransaction[] }> = []

  async function onePayment(index: number): Promise<void> {
    const amountMinor = 1_000 + Math.floor(rand() * 49_000)
    const useCard = options.savedCards.length > 0 && rand() < 0.3
    const card = useCard ? pick(options.savedCards) : undefined
    const collection = await service.createPaymentCollections({ currency_code: "dkk", amount: major(amountMinor) })
    if (card) options.cartOf(collection.id, card.customerId)
    // No fault here (no money moves), but a loaded machine may time a session out: the shopper tries again.
    const session = await step(`session of payment ${index}`, [], () =>
      service.createPaymentSession(collection.id, {
        provider_id: options.providerId,
        currency_code: "dkk",
        amount: major(amountMinor),
        data: card ? { saved_card_id: card.id } : {},
        context: card ? { customer: { id: card.customerId } as never } : {},
      })
    )
    if (!session) return
    const planned: Planned = { captured: [], refunded: [], released: false }
    if (card) {
      planned.savedCard = { sessionId: session.id, agreementId: card.agreementId }
      report.savedCardPayments += 1
    } else {
      await sandbox.simulatePayment(String(session.data.altapay_session_id), { outcome: "authorize", callback: false })
    }
    // Two posts for one payment (the callback and the customer's return) authorize at once.
    const authorize = () => service.authorizePaymentSession(session.id, {})
    const duplicate = rand() < 0.2
    if (duplicate) report.duplicateAuthorizations += 1
    done.push(planned)
    const payment = await step(`authorize ${session.id}`, card ? ["SubscriptionCharge", "payments"] : ["payments"], async () => {
      if (!duplicate) return authorize()
      const both = await Promise.allSettled([authorize(), authorize()])
      const authorized = both.find((r) => r.status === "fulfilled")
      if (authorized) return authorized.value
      throw (both[0] as PromiseRejectedResult).reason
    })
    if (!payment) return
    planned.payment = payment
    planned.transactionId = String((payment.data as { transaction_id?: string }).transaction_id)

    if (rand() < 0.15) {
      const released = await step(`release ${payment.id}`, ["releaseReservation", "payments"], () => service.cancelPayment(payment.id))
      planned.released = !!released
      return
    }
    // Captures: one to three parts, the last maybe short of the whole.
    const parts = 1 + Math.floor(rand() * 3)
    let left = amountMinor
    for (let i = 0; i < parts && left > 0; i++) {
      const part = i === parts - 1 ? (rand() < 0.7 ? left : Math.max(1, Math.floor(left / 2))) : Math.max(1, Math.floor(left * (0.2 + rand() * 0.5)))
      const ok = await step(`capture ${part} of ${payment.id}`, ["captureReservation", "payments"], () => service.capturePayment({ payment_id: payment.id, amount: major(part) }))
      if (!ok) break
      planned.captured.push(part)
      left -= part
    }
    let refundable = planned.captured.reduce((a, b) => a + b, 0)
    const refunds = Math.floor(rand() * 3)
    for (let i = 0; i < refunds && refundable > 0; i++) {
      const part = rand() < 0.3 ? refundable : Math.max(1, Math.floor(refundable * rand()))
      const ok = await step(`refund ${part} of ${payment.id}`, ["refundCapturedReservation", "payments"], () =>
        service.refundPayment({ payment_id: payment.id, amount: major(part) })
      )
      if (!ok) break
      planned.refunded.push(part)
      refundable -= part
    }
    // An order edit later: the merchant charges the customer's saved card for the difference. The
    // first saved-card payment to get here always does, so a short run exercises this road too.
    if (card && (report.merchantCharges === 0 || rand() < 0.5)) {
      const collectionId = `paycol_edit_${index}`
      const extraMinor = 100 + Math.floor(rand() * 5_000)
      const door = moneyDoorFor(options.scaleOut, options.headersTimeoutMs)
      const line: OrderLine = { description: "Order edit", itemId: "edit", quantity: 1, unitPriceMinor: extraMinor, taxAmountMinor: 0, taxPercent: 0, goodsType: "item" }
      const entry = { collectionId, agreementId: card.agreementId, amountMinor: extraMinor, recorded: [] as GatewayTransaction[] }
      merchantCharges.push(entry)
      report.merchantCharges += 1
      const charged = await step(`merchant charge ${collectionId}`, ["chargeSubscription", "payments"], () =>
        chargeAtAltaPay(
          { client: options.client, door },
          {
            agreementId: card.agreementId,
            paymentCollectionId: collectionId,
            orderId: `order_${index}`,
            amountMinor: extraMinor,
            currency: "DKK",
            capture: true,
            unscheduledType: "incremental",
            orderLines: [line],
          }
        )
      )
      if (charged) entry.recorded.push(charged.transaction)
    }
  }

  let next = 0
  const workers = Array.from({ length: options.concurrency }, async () => {
    while (next < options.payments) {
      const index = next++
      await onePayment(index).catch((error: unknown) => problem(`payment ${index}: ${error instanceof Error ? error.stack : String(error)}`))
      report.payments += 1
      if (report.payments % 100 === 0) options.progress?.(`money fault run: ${report.payments}/${options.payments} payments`)
    }
  })
  await Promise.all(workers)
  sandbox.faults.clear()
  await sleep(options.headersTimeoutMs * 2) // every late request has landed

  for (const planned of done) await compare(planned)
  for (const charge of merchantCharges) await compareMerchantCharge(charge)
  for (const planned of done) if (planned.savedCard) await compareSavedCardCharge(planned)
  return report

  async function compare(planned: Planned): Promise<void> {
    const payment = planned.payment
    if (!payment) return
    const transaction = sandbox.transaction(planned.transactionId!)
    if (!transaction) return problem(`payment ${payment.id}: AltaPay has no transaction ${planned.transactionId}`)
    const [medusa] = await service.listPayments({ id: payment.id }, { relations: ["captures", "refunds"] })
    const data = (medusa.data ?? {}) as { captures?: MovementRecord[]; refunds?: MovementRecord[] }
    const rows = (list: Array<{ id: string; amount: unknown }> | undefined) => (list ?? []).map((r) => ({ id: r.id, minor: Math.round(Number(r.amount) * 100) }))
    countMovements(`payment ${payment.id} captures`, transaction.captures, rows(medusa.captures as never), data.captures ?? [], "capture_id", planned.captured)
    countMovements(`payment ${payment.id} refunds`, transaction.refunds, rows(medusa.refunds as never), data.refunds ?? [], "refund_id", planned.refunded)
    const releasedAtAltaPay = transaction.status === "released"
    const canceled = !!medusa.canceled_at
    if (releasedAtAltaPay && !canceled) {
      report.movedWithoutRecord += 1
      problem(`payment ${payment.id}: released at AltaPay, not canceled in Medusa`)
    }
    if (canceled && !releasedAtAltaPay) {
      report.recordedWithoutMoney += 1
      problem(`payment ${payment.id}: canceled in Medusa, ${transaction.status} at AltaPay`)
    }
  }

  /**
   * AltaPay's movements of one kind against Medusa's rows. Each movement must be one row's: the row's
   * record in the payment's data names the movement's reconciliation identifier and amount; each row
   * must be one movement's; and no step may have moved money more often than it completed.
   */
  function countMovements(
    what: string,
    atAltaPay: Array<{ reconciliationIdentifier: string; amountMinor: number }>,
    medusaRows: Array<{ id: string; minor: number }>,
    records: MovementRecord[],
    rowKey: "capture_id" | "refund_id",
    completedSteps: number[]
  ): void {
    const recordOf = new Map(records.filter((r) => r[rowKey]).map((r) => [r[rowKey] as string, r]))
    const rowFor = (movement: { reconciliationIdentifier: string; amountMinor: number }) =>
      medusaRows.find((row) => {
        const record = recordOf.get(row.id)
        return record?.reconciliation_identifier === movement.reconciliationIdentifier && record.amount_minor === movement.amountMinor && row.minor === movement.amountMinor
      })
    for (const movement of atAltaPay) {
      if (rowFor(movement)) continue
      report.movedWithoutRecord += 1
      problem(`${what}: AltaPay moved ${movement.amountMinor} (${movement.reconciliationIdentifier}) and Medusa has no row for it`)
    }
    for (const row of medusaRows) {
      const record = recordOf.get(row.id)
      if (record && atAltaPay.some((m) => m.reconciliationIdentifier === record.reconciliation_identifier && m.amountMinor === row.minor)) continue
      report.recordedWithoutMoney += 1
      problem(`${what}: Medusa row ${row.id} of ${row.minor} has no movement at AltaPay`)
    }
    if (atAltaPay.length > completedSteps.length) {
      report.movedTwice += atAltaPay.length - completedSteps.length
      problem(`${what}: ${atAltaPay.length} movements at AltaPay for ${completedSteps.length} steps (${completedSteps.join(", ")})`)
    }
  }

  /** The collection's charges at AltaPay against the one charge its caller got back. */
  async function compareMerchantCharge(charge: (typeof merchantCharges)[number]): Promise<void> {
    const charges = (await chargesOfAgreement(charge.agreementId)).filter((t) =>
      t.paymentInfos.some((i) => i.name === "medusa_payment_collection_id" && i.value === charge.collectionId)
    )
    chargeCounts(`merchant charge ${charge.collectionId}`, charges, charge.recorded)
  }

  /** A saved-card payment's charges at AltaPay (they name the session) against Medusa's payment of it. */
  async function compareSavedCardCharge(planned: Planned): Promise<void> {
    const { sessionId, agreementId } = planned.savedCard!
    const charges = (await chargesOfAgreement(agreementId)).filter((t) => t.paymentInfos.some((i) => i.name === "medusa_payment_session_id" && i.value === sessionId))
    const recorded = charges.filter((t) => planned.payment && t.transactionId === planned.transactionId)
    chargeCounts(`saved-card charge of ${sessionId}`, charges, recorded)
  }

  /** A charge that reserved money (a release later gives it back: the payment's own comparison counts that). */
  function chargeCounts(what: string, atAltaPay: GatewayTransaction[], recorded: GatewayTransaction[]): void {
    const took = atAltaPay.filter((t) => (t.reservedAmount?.minor ?? 0) > 0 && !/declined|failed|error/i.test(t.transactionStatus ?? ""))
    if (took.length > 1) {
      report.movedTwice += took.length - 1
      problem(`${what}: ${took.length} charges at AltaPay`)
    }
    const unrecorded = took.filter((t) => !recorded.some((r) => r.transactionId === t.transactionId))
    report.movedWithoutRecord += unrecorded.length
    for (const t of unrecorded) problem(`${what}: charge ${t.transactionId} at AltaPay is nobody's record`)
    const unpaid = recorded.filter((r) => !took.some((t) => t.transactionId === r.transactionId))
    report.recordedWithoutMoney += unpaid.length
    for (const r of unpaid) problem(`${what}: recorded charge ${r.transactionId} took no money at AltaPay`)
  }

  async function chargesOfAgreement(agreementId: string): Promise<GatewayTransaction[]> {
    const setUp = (await options.client.gateway.payments({ transactionId: agreementId })).find((t) => t.transactionId === agreementId)
    if (!setUp?.shopOrderId) return []
    return (await options.client.gateway.payments({ shopOrderId: setUp.shopOrderId })).filter((t) => t.authType === "subscription_payment")
  }
}

interface MovementRecord {
  capture_id?: string | null
  refund_id?: string | null
  reconciliation_identifier: string
  amount_minor: number
}
