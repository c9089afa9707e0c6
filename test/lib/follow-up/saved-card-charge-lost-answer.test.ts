/**
 * A customer's purchase with a saved card whose charge went through while its answer was lost and
 * AltaPay could not be asked right after: authorization throws ("may have been made"), so Medusa
 * keeps the session's data as initiatePayment wrote it, without the agreement's shop_orderid. The
 * session follow-up still finds the charge under the agreement (asking AltaPay for its set-up), so a
 * customer who does not try again gets the order the callback would have placed.
 */
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { sessionAtAltaPay, sessionPayment } from "../../../src/lib/follow-up/session-payment"
import { parseAltaPayOptions } from "../../../src/lib/registrations/options"
import { serverKeys } from "../../../src/lib/registrations/server-keys"
import { AltaPayProviderService } from "../../../src/providers/altapay"
import { savedCardAgreement } from "../../helpers/agreements"
import { sandboxProviderOptions } from "../../helpers/provider"
import { SANDBOX_PASSWORD, SANDBOX_USER, startSandboxAndClient, type SandboxPair } from "../../helpers/sandbox"

const TERMINAL = "AltaPay Sandbox Test Terminal"
let pair: SandboxPair
const logger = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {} } as unknown as Logger

beforeAll(async () => (pair = await startSandboxAndClient()))
afterAll(() => pair.close())

it("a saved-card charge whose answer was lost is found by the session follow-up's look-up, under the agreement's set-up", async () => {
  const { sandbox, client } = pair
  const agreementId = await savedCardAgreement(pair)
  const shopOrderId = (await client.gateway.payments({ transactionId: agreementId }))[0]!.shopOrderId
  const sessionId = "payses_01LOSTCHARGE"
  const card = {
    id: "apcard_1",
    customer_id: "cus_karen",
    provider_id: "pp_altapay_altapay",
    agreement_id: agreementId,
    masked_pan: "411111******1111",
    expiry_month: 12,
    expiry_year: 2035,
    scheme: "Visa",
    terminal: TERMINAL,
    currency: "DKK",
    created_at: new Date().toISOString(),
  }
  const query = {
    graph: async ({ entity }: { entity: string }) => {
      if (entity === "altapay_saved_card") return { data: [card] }
      if (entity === "payment_session")
        return { data: [{ id: sessionId, status: "pending", payment: null, payment_collection: { id: "paycol_1", cart: { id: "cart_1", customer_id: "cus_karen" } } }] }
      return { data: [] }
    },
  }
  const raw = sandboxProviderOptions(
    sandbox,
    { username: SANDBOX_USER, password: SANDBOX_PASSWORD },
    { terminal: TERMINAL, savedCards: { enabled: true }, headersTimeoutMs: 150, maxRetries: 0 }
  )
  const provider = new AltaPayProviderService({ [ContainerRegistrationKeys.QUERY]: query, logger } as never, raw)
  const created = await provider.initiatePayment({
    amount: 40,
    currency_code: "dkk",
    data: { session_id: sessionId, saved_card_id: "apcard_1" },
    context: { idempotency_key: sessionId, customer: { id: "cus_karen" } } as never,
  })

  // The charge is made but its answer is lost, and AltaPay cannot be asked right after (the two look-ups before it pass).
  sandbox.faults.add({ route: "reserveSubscriptionCharge", kind: "lost-answer" })
  sandbox.faults.add({ route: "payments", kind: "reset", skip: 2, times: 5 })
  await expect(provider.authorizePayment({ data: created.data!, context: { idempotency_key: sessionId } })).rejects.toThrow(/may have been made/)
  sandbox.faults.clear()
  const made = (await client.gateway.payments({ shopOrderId })).filter((t) => t.paymentInfos.some((i) => i.name === "medusa_payment_session_id" && i.value === sessionId))
  expect(made).toHaveLength(1) // AltaPay charged the customer

  // The customer walks away. Medusa still has the session with the data initiatePayment wrote.
  const parsed = parseAltaPayOptions(raw)
  if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
  const keys = serverKeys(parsed.options, "payment-data-seal")
  const found = await sessionPayment(client, sessionAtAltaPay({ id: sessionId, data: created.data as Record<string, unknown> }, keys))
  expect(found?.transactionId).toBe(made[0].transactionId)
})
