/**
 * The one door for money (issue 39) inside Medusa's own Payment module, on Postgres, against the
 * sandbox over HTTP: Medusa deletes a capture or refund row whose provider call threw and gives
 * the retry a new id (medusajs/medusa#16292, #16681), and the door must never let that retry move
 * money twice. Then the fault run (tools/money-faults/fault-run.ts): random payments with random
 * faults on every road, AltaPay's record and Medusa's compared payment by payment.
 */
import fs from "node:fs"
import path from "node:path"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import * as PaymentModels from "@medusajs/payment/dist/models"
import { createAltaPayClient } from "../../src/altapay"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { scaleOutFrom } from "../../src/lib/scale-out/shared-state"
import { PROVIDER_ID, PROVIDER_RESOLVE, API_PASSWORD, API_USER, sandboxedAltaPay } from "../../tools/test-store/altapay-sandbox"
import { runMoneyFaults, type FaultRunReport } from "../../tools/money-faults/fault-run"
import { REPO_ROOT } from "../../tools/test-store/app/config"
import { sharedCache } from "../../test/helpers/cache"
import { savedCardRecord } from "../../test/helpers/saved-cards"

jest.setTimeout(900_000)

const HEADERS_TIMEOUT_MS = 400
const altapay = sandboxedAltaPay({ headersTimeoutMs: HEADERS_TIMEOUT_MS, maxRetries: 1, savedCards: { enabled: true } })
/**
 * How many payments the fault run makes (ALTAPAY_FAULT_RUN_PAYMENTS): 200 in CI, where the suite has
 * a time budget; docs/security.md quotes a run of 1,000.
 */
const FAULT_RUN_PAYMENTS = Number(process.env.ALTAPAY_FAULT_RUN_PAYMENTS ?? 200)

const cache = sharedCache()
const quietLogger = { ...console, debug: () => undefined, info: () => undefined, log: () => undefined, warn: () => undefined }
/** The store around the Payment module: which customer a collection's cart is, and the saved cards. */
const carts = new Map<string, string>()
const savedCards: Array<{ id: string; customer_id: string; agreement_id: string }> = []
let paymentService: IPaymentModuleService | undefined

/**
 * Medusa's `query` as the provider uses it, answered from the Payment module's own records (the
 * captures Medusa made, its sessions) and the store's carts and saved cards.
 */
const query = {
  graph: async ({ entity, filters }: { entity: string; filters: Record<string, string | undefined> }) => {
    const service = paymentService!
    if (entity === "payment") {
      const payments = await service.listPayments({ payment_session_id: filters.payment_session_id }, { relations: ["captures"] })
      return {
        data: payments.map((p) => ({
          id: p.id,
          captures: (p.captures ?? []).map((c) => ({ id: c.id, amount: c.amount, raw_amount: (c as { raw_amount?: unknown }).raw_amount, created_at: c.created_at })),
        })),
      }
    }
    if (entity === "payment_session") {
      const sessions = await service.listPaymentSessions({ id: filters.id })
      return {
        data: sessions.map((s) => {
          const customer = carts.get(s.payment_collection_id)
          return {
            ...s,
            payment: null,
            payment_collection: { id: s.payment_collection_id, cart: customer ? { id: `cart_${s.payment_collection_id}`, customer_id: customer } : null, order: null },
          }
        }),
      }
    }
    if (entity === "altapay_saved_card") {
      const rows = savedCards.filter((c) => (!filters.id || c.id === filters.id) && (!filters.customer_id || c.customer_id === filters.customer_id))
      return { data: rows.map((c) => savedCardRecord({ ...c, provider_id: PROVIDER_ID, expiry_year: 2035, terminal: "AltaPay Sandbox Test Terminal" })) }
    }
    return { data: [] }
  },
}

beforeAll(() => altapay.start())
afterAll(() => altapay.stop())

const ledgerOf = (operation: string) =>
  altapay
    .sandbox()
    .ledger()
    .filter((e) => e.operation === operation && e.effect?.result === "Success")

moduleIntegrationTestRunner<IPaymentModuleService>({
  moduleName: Modules.PAYMENT,
  resolve: "@medusajs/payment",
  moduleModels: Object.values(PaymentModels),
  moduleDependencies: [ContainerRegistrationKeys.QUERY, Modules.CACHE],
  // Errors only: the fault run makes thousands of AltaPay calls and warns of every lost answer; its report says what went wrong.
  injectedDependencies: { [ContainerRegistrationKeys.QUERY]: query, [Modules.CACHE]: cache, [ContainerRegistrationKeys.LOGGER]: quietLogger },
  moduleOptions: { providers: [{ resolve: PROVIDER_RESOLVE, id: "altapay", options: altapay.options }] },
  testSuite: ({ service }) => {
    beforeEach(() => {
      paymentService = service
      altapay.sandbox().faults.clear()
    })

    async function authorized(amount: number) {
      const collection = await service.createPaymentCollections({ currency_code: "dkk", amount })
      const session = await service.createPaymentSession(collection.id, { provider_id: PROVIDER_ID, currency_code: "dkk", amount, data: {}, context: {} })
      const paid = await altapay.sandbox().simulatePayment(String(session.data.altapay_session_id), { outcome: "authorize", callback: false })
      return { payment: (await service.authorizePaymentSession(session.id, {}))!, transactionId: paid.transactionId! }
    }

    it("a partial capture whose answer is lost, retried under a new capture id, is captured once", async () => {
      const { payment, transactionId } = await authorized(100)
      altapay.sandbox().faults.add({ route: "captureReservation", kind: "lost-answer" })
      altapay.sandbox().faults.add({ route: "payments", kind: "503", times: 3 })
      await expect(service.capturePayment({ payment_id: payment.id, amount: 40 })).rejects.toThrow(/may have been made: trying again is safe/)
      // Medusa deleted the capture row; AltaPay captured 40.00.
      expect((await service.listPayments({ id: payment.id }, { relations: ["captures"] }))[0].captures).toHaveLength(0)
      expect(altapay.sandbox().transaction(transactionId)!.capturedMinor).toBe(4000)

      // The merchant presses Capture again: a new capture id, the same 40.00.
      await service.capturePayment({ payment_id: payment.id, amount: 40 })
      const [medusa] = await service.listPayments({ id: payment.id }, { relations: ["captures"] })
      expect(medusa.captures!.map((c) => Number(c.amount))).toEqual([40])
      expect(altapay.sandbox().transaction(transactionId)!.capturedMinor).toBe(4000)
      expect(ledgerOf("captureReservation").filter((e) => e.effect!.transactionId === transactionId)).toHaveLength(1)
      // Medusa's row is recorded with the identifier AltaPay has.
      const [effect] = ledgerOf("captureReservation").filter((e) => e.effect!.transactionId === transactionId)
      expect((medusa.data as any).captures).toEqual([
        expect.objectContaining({ capture_id: medusa.captures![0].id, reconciliation_identifier: effect.effect!.reconciliationIdentifier }),
      ])

      // The rest captures normally.
      await service.capturePayment({ payment_id: payment.id, amount: 60 })
      expect(altapay.sandbox().transaction(transactionId)!.capturedMinor).toBe(10000)
    })

    it("a retry of another amount after an unrecorded capture is refused with how to record it, and nothing is sent", async () => {
      const { payment, transactionId } = await authorized(100)
      altapay.sandbox().faults.add({ route: "captureReservation", kind: "lost-answer" })
      altapay.sandbox().faults.add({ route: "payments", kind: "503", times: 3 })
      await expect(service.capturePayment({ payment_id: payment.id, amount: 40 })).rejects.toThrow(/trying again is safe/)
      const sent = ledgerOf("captureReservation").length
      await expect(service.capturePayment({ payment_id: payment.id, amount: 30 })).rejects.toThrow(
        /an earlier capture of 40\.00 DKK .* AltaPay shows it made, and Medusa has no record of it\. Nothing was sent: capture exactly 40\.00 DKK to record it/
      )
      expect(ledgerOf("captureReservation").length).toBe(sent)
      await service.capturePayment({ payment_id: payment.id, amount: 40 })
      expect(altapay.sandbox().transaction(transactionId)!.capturedMinor).toBe(4000)
    })

    it("a capture AltaPay never made (the request was lost before it) is sent once the merchant retries after AltaPay had time to make it", async () => {
      const { payment, transactionId } = await authorized(50)
      altapay.sandbox().faults.add({ route: "captureReservation", kind: "reset" })
      altapay.sandbox().faults.add({ route: "payments", kind: "503", times: 3 })
      await expect(service.capturePayment({ payment_id: payment.id, amount: 20 })).rejects.toThrow(/trying again is safe/)
      // The merchant retries, waiting as long as the plugin asks: AltaPay may still be working on the first.
      for (let attempt = 0; ; attempt++) {
        const error = await service.capturePayment({ payment_id: payment.id, amount: 20 }).then(
          () => undefined,
          (e: Error) => e
        )
        if (!error) break
        const wait = /does not show it yet, so nothing was sent\. Try again in (\d+) s/.exec(error.message)
        if (!wait || attempt > 3) throw error
        await new Promise((resolve) => setTimeout(resolve, Number(wait[1]) * 1000))
      }
      expect(altapay.sandbox().transaction(transactionId)!.capturedMinor).toBe(2000)
      expect(ledgerOf("captureReservation").filter((e) => e.effect!.transactionId === transactionId)).toHaveLength(1)
      expect((await service.listPayments({ id: payment.id }, { relations: ["captures"] }))[0].captures).toHaveLength(1)
    })

    it("two authorizations of one session at once (a callback beside the customer's return) leave the reservation to the one Medusa recorded", async () => {
      const collection = await service.createPaymentCollections({ currency_code: "dkk", amount: 70 })
      const session = await service.createPaymentSession(collection.id, { provider_id: PROVIDER_ID, currency_code: "dkk", amount: 70, data: {}, context: {} })
      const paid = await altapay.sandbox().simulatePayment(String(session.data.altapay_session_id), { outcome: "authorize", callback: false })
      const both = await Promise.allSettled([service.authorizePaymentSession(session.id, {}), service.authorizePaymentSession(session.id, {})])
      const payment = both.map((r) => (r.status === "fulfilled" ? r.value : undefined)).find(Boolean)!
      // Medusa undid the other authorization with cancelPayment: the reservation stays.
      expect(altapay.sandbox().transaction(paid.transactionId!)!.status).toBe("preauth")
      await service.capturePayment({ payment_id: payment.id })
      expect(altapay.sandbox().transaction(paid.transactionId!)!.capturedMinor).toBe(7000)
    })

    it(`the fault run: ${FAULT_RUN_PAYMENTS} random payments on every road, no money moved twice, unrecorded or recorded without moving`, async () => {
      const sandbox = altapay.sandbox()
      const client = createAltaPayClient({ checkoutUrl: sandbox.checkoutUrl, gatewayUrl: sandbox.gatewayUrl, username: API_USER, password: API_PASSWORD })
      // Three customers with a saved card each (an AltaPay agreement set up on the sandbox's page).
      const cards = []
      for (const customerId of ["cus_fault_a", "cus_fault_b", "cus_fault_c"]) {
        const request = await client.agreements.setupAgreement({
          terminal: "AltaPay Sandbox Test Terminal",
          shopOrderId: `agreement-${customerId.replace(/_/g, "-")}`,
          amountMinor: 100,
          currency: "DKK",
          agreement: { type: "unscheduled", unscheduledType: "charge" },
          callbacks: {},
        })
        const { agreementId } = await sandbox.agreements.submit(request.paymentRequestId, {})
        savedCards.push({ id: `card_${customerId}`, customer_id: customerId, agreement_id: agreementId! })
        cards.push({ id: `card_${customerId}`, customerId, agreementId: agreementId! })
      }
      const provider = (service as unknown as { paymentProviderService_: { retrieveProvider(id: string): AltaPayProviderService } }).paymentProviderService_.retrieveProvider(
        PROVIDER_ID
      )
      const restart = () => {
        const rebuilt = new AltaPayProviderService((provider as unknown as { container: Record<string, unknown> }).container, (provider as unknown as { config: never }).config)
        Object.assign(provider, rebuilt)
      }
      const started = Date.now()
      const report = await runMoneyFaults({
        service,
        sandbox,
        client,
        providerId: PROVIDER_ID,
        scaleOut: scaleOutFrom((name) => (name === Modules.CACHE ? (cache as never) : undefined)),
        headersTimeoutMs: HEADERS_TIMEOUT_MS,
        payments: FAULT_RUN_PAYMENTS,
        concurrency: 16,
        seed: Number(process.env.ALTAPAY_FAULT_RUN_SEED ?? 39),
        faultRate: 0.25,
        restartRate: 0.05,
        restart,
        savedCards: cards,
        cartOf: (collectionId, customerId) => void carts.set(collectionId, customerId),
        progress: (line) => process.stdout.write(`${line}\n`),
      })
      const seconds = Math.round((Date.now() - started) / 1000)
      writeReport(report, seconds)
      expect(report.problems).toEqual([])
      expect({ movedTwice: report.movedTwice, movedWithoutRecord: report.movedWithoutRecord, recordedWithoutMoney: report.recordedWithoutMoney, gaveUp: report.gaveUp }).toEqual({
        movedTwice: 0,
        movedWithoutRecord: 0,
        recordedWithoutMoney: 0,
        gaveUp: 0,
      })
      expect(report.payments).toBe(FAULT_RUN_PAYMENTS)
      // Every kind of fault and every road was exercised.
      expect(Object.keys(report.faults).sort()).toEqual(["500", "503", "latency", "lost-answer", "reset", "truncate"])
      expect(report.restarts).toBeGreaterThan(0)
      expect(report.savedCardPayments).toBeGreaterThan(0)
      expect(report.merchantCharges).toBeGreaterThan(0)
    })
  },
})

/** The run's figures, printed and kept in .cache/money-fault-run.md (docs/security.md quotes a run). */
function writeReport(report: FaultRunReport, seconds: number): void {
  const faults = Object.entries(report.faults)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(", ")
  const text = [
    "| figure | value |",
    "|---|---|",
    `| payments | ${report.payments} (${report.savedCardPayments} paid with a saved card at authorization) |`,
    `| merchant charges on a saved card | ${report.merchantCharges} |`,
    `| steps (session, authorize, capture, refund, release, charge) | ${report.steps} |`,
    `| tries (retries with new keys included) | ${report.tries} |`,
    `| faults injected | ${faults} |`,
    `| provider restarts | ${report.restarts} |`,
    `| duplicate authorizations | ${report.duplicateAuthorizations} |`,
    `| money moved twice | ${report.movedTwice} |`,
    `| money moved without a record | ${report.movedWithoutRecord} |`,
    `| recorded without money | ${report.recordedWithoutMoney} |`,
    `| steps given up | ${report.gaveUp} |`,
    `| run time | ${seconds} s |`,
  ].join("\n")
  process.stdout.write(`\nmoney fault run:\n${text}\n`)
  const dir = path.join(REPO_ROOT, ".cache")
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, "money-fault-run.md"), `${text}\n`)
}
