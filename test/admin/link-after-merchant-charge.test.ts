/**
 * A payment link for an order is not created while a charge of its payment collection on a saved
 * card is at AltaPay and Medusa has not recorded it (the charge answered, the record step failed or
 * never ran): the customer would pay the same amount twice. The record step drops the door's
 * attempt once Medusa has the charge, so what the book still holds is such a charge, or one being
 * made.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { sessionForOrder } from "../../src/api/admin/altapay/_lib/link-sessions"
import { AttemptBook } from "../../src/lib/money-door/attempts"
import { moneyDoorFor } from "../../src/lib/money-door/door"
import { freshPaymentData, sealPaymentData } from "../../src/lib/payment-data/data"
import { parseAltaPayOptions } from "../../src/lib/registrations/options"
import { serverKeys } from "../../src/lib/registrations/server-keys"
import { chargeAtAltaPay } from "../../src/lib/saved-cards/merchant-charge/at-altapay"
import { memoryStore, paymentLockOn } from "../../src/lib/scale-out/shared-state"
import { startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"
import { MINIMAL_OPTIONS } from "../helpers/options"
import { amountDueLine, savedCardAgreement } from "../helpers/agreements"

const TIMEOUT_MS = 150
let pair: SandboxPair

beforeAll(async () => {
  pair = await startSandboxAndClient({ headersTimeoutMs: TIMEOUT_MS, maxRetries: 1 })
})
afterAll(() => pair.close())

const agreement = (card?: { expiryMonth?: string; expiryYear?: string }) => savedCardAgreement(pair, card)
const line = amountDueLine

it("no payment link is created for a collection charged on a saved card that Medusa has not recorded; the refusal says what to do", async () => {
  const parsed = parseAltaPayOptions({ ...MINIMAL_OPTIONS })
  if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
  const options = parsed.options
  const providerId = `pp_altapay_${options.providerId}`
  const store = memoryStore()
  const attempts = new AttemptBook(store)
  const collectionId = "pay_col_edit7"
  const orderId = "order_7"

  // The merchant charges the saved card for the 125.00 DKK an order edit left due: AltaPay takes it.
  const agreementId = await agreement()
  const charged = await chargeAtAltaPay(
    { client: pair.client, door: moneyDoorFor({ store, paymentLock: paymentLockOn(undefined) }, TIMEOUT_MS) },
    { agreementId, paymentCollectionId: collectionId, orderId, amountMinor: 12_500, currency: "DKK", capture: true, unscheduledType: "incremental", orderLines: [line(12_500)] }
  )
  expect(charged.transaction.transactionStatus).toBe("captured")
  // ...and Medusa's record step (recordAltaPayAgreementChargeStep) failed or never ran: the order still shows 125.00 due.

  // An earlier payment link's session (expired link, never paid) is still pending on the collection.
  const keys = serverKeys(options, "payment-data-seal")
  const oldSessionId = "payses_01OLDLINK"
  const oldData = sealPaymentData(
    freshPaymentData({
      altapay_session_id: "altapay-old-link-session",
      order_id: "payses-01OLDLINK",
      amount_minor: 12_500,
      currency: "DKK",
      terminal: "AltaPay Sandbox Test Terminal",
      auto_capture: false,
      order_lines: [line(12_500)],
      order_lines_source: "summary",
    }),
    keys
  )
  const order = {
    id: orderId,
    display_id: 7,
    status: "pending",
    currency_code: "dkk",
    total: 250,
    customer_id: "cus_karen",
    items: [],
    summary: { pending_difference: 125 },
    payment_collections: [
      {
        id: collectionId,
        status: "not_paid",
        amount: 125,
        currency_code: "dkk",
        payment_sessions: [{ id: oldSessionId, provider_id: providerId, status: "pending", amount: 125, currency_code: "dkk", payment_collection_id: collectionId, data: oldData }],
      },
    ],
  }
  const container = {
    resolve: (name: string) => {
      if (name === Modules.LOCKING) return { execute: (_key: string, job: () => Promise<unknown>) => job() }
      if (name === ContainerRegistrationKeys.QUERY) return { graph: async ({ entity }: { entity: string }) => ({ data: entity === "order" ? [order] : [] }) }
      throw new Error(`unexpected resolve ${name}`)
    },
  }

  // The admin sends a payment link for what Medusa shows due: it must be refused, since AltaPay already holds that money.
  const link = sessionForOrder(container as never, orderId, { providerId, options, attempts })
  await expect(link).rejects.toThrow(/on a saved card \(medusa-charge-pay_col_edit7-12500\) may have been made without Medusa recording it.*charge the saved card again first/)
})
