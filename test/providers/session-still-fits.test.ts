/**
 * A cart whose total changed after its session was made, with the payment collection not refreshed
 * (POST /store/carts/:id/taxes after a VAT change): authorize refuses, before AltaPay is asked, with
 * the customer's message and a warning for the merchant. A payment link whose order now asks another
 * amount (an edit confirmed while the link was being paid) is refused the same way. A cart that still
 * fits, and a link its order still asks for, are authorized as before.
 */
import type { Logger, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { AltaPayProviderService } from "../../src/providers/altapay"
import type { AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { PAYMENT_METHODS, startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions, sessionIdOf } from "../helpers/provider"

const USER = "cart-fits-user"
const PASSWORD = "cart-fits-password-42"
const [CARD] = PAYMENT_METHODS

let sandbox: Sandbox
let counter = 0
/** Each session's cart (none: a payment link on an order), as Medusa's `query` shows it. */
const carts = new Map<string, { id: string; total: number | string; currency_code: string } | null>()
/** The links' order, as Medusa's `query` shows it: what it still waits for, and whether it is canceled. */
const linkOrder = { id: "order_fits", display_id: 12, currency_code: "dkk", status: "pending", summary: { pending_difference: 343 as number | string }, items: [] }
const query = {
  graph: async ({ entity, filters }: { entity: string; filters: { id: string } }) => {
    if (entity === "payment_session") {
      const cart = carts.get(filters.id)
      return {
        data: [
          {
            id: filters.id,
            status: "pending",
            payment: null,
            payment_collection: { id: "paycol_fits", cart: cart ? { id: cart.id } : null, order: cart ? null : { id: "order_fits" } },
          },
        ],
      }
    }
    if (entity === "order")
      return { data: filters.id === linkOrder.id ? [{ ...linkOrder, payment_collections: [{ id: "paycol_fits", status: "not_paid", amount: 343, currency_code: "dkk" }] }] : [] }
    const cart = [...carts.values()].find((c) => c?.id === filters.id)
    return { data: entity === "cart" && cart ? [{ ...cart, items: [] }] : [] }
  },
} as unknown as Pick<RemoteQueryFunction, "graph">
const warnings: string[] = []
const logger = { warn: (m: string) => warnings.push(m), error: () => {}, info: () => {}, debug: () => {} } as unknown as Logger

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())

const provider = () =>
  new AltaPayProviderService(
    { [ContainerRegistrationKeys.QUERY]: query, logger },
    sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { terminal: CARD.terminalName })
  )

/** A session of 343.00 DKK paid at AltaPay; its cart now costs `cartTotal` (null: no cart). */
async function paid(p: AltaPayProviderService, cartTotal: number | string | null): Promise<{ id: string; data: AltaPayPaymentData }> {
  const id = `payses_fits${Date.now().toString(36)}${(counter++).toString(36)}`
  const { data } = await p.initiatePayment({ amount: 343, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  await sandbox.simulatePayment((data as AltaPayPaymentData).altapay_session_id, { outcome: "authorize", callback: false, paymentMethodId: CARD.id })
  // The cart as it is at completion (while the session was made, it had none: one summary line).
  carts.set(id, cartTotal === null ? null : { id: `cart_fits${counter}`, total: cartTotal, currency_code: "dkk" })
  return { id: sessionIdOf(data as AltaPayPaymentData), data: data as AltaPayPaymentData }
}

it("a cart now costing another total: refused with the customer's message, AltaPay not asked, the merchant warned", async () => {
  const p = provider()
  const session = await paid(p, 356.72)
  const before = sandbox.ledger().length
  const refused = await p.authorizePayment({ data: session.data as never, context: { idempotency_key: session.id } }).catch((e: unknown) => e)
  expect(refused).toBeInstanceOf(MedusaError)
  expect(refused).toMatchObject({
    type: MedusaError.Types.NOT_ALLOWED,
    code: "altapay_cart_changed_after_payment",
    message:
      "Your cart changed after the payment was started: its total is now 356.72 DKK, but the payment is for 343.00 DKK. No order was placed, and any amount reserved for that payment will be released. Please start the payment again.",
  })
  expect(sandbox.ledger()).toHaveLength(before)
  expect(warnings.at(-1)).toMatch(new RegExp(`^AltaPay authorize ${session.id}: cart cart_fits\\d+ now costs 356.72 DKK, but the payment session is for 343.00 DKK`))
})

it("a cart grown past 2^53 øre since: refused as changed, not a 500, with its total in full", async () => {
  const p = provider()
  const session = await paid(p, "100000000000000000.00")
  const refused = await p.authorizePayment({ data: session.data as never, context: { idempotency_key: session.id } }).catch((e: unknown) => e)
  expect(refused).toMatchObject({ code: "altapay_cart_changed_after_payment", message: expect.stringContaining("its total is now 100000000000000000.00 DKK") })
})

it("a payment link whose order now asks another amount (edited while it was paid): refused, AltaPay not asked, the merchant told to send a new link", async () => {
  const p = provider()
  const session = await paid(p, null)
  linkOrder.summary.pending_difference = "56.88"
  try {
    const before = sandbox.ledger().length
    const refused = await p.authorizePayment({ data: session.data as never, context: { idempotency_key: session.id } }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(MedusaError)
    expect(refused).toMatchObject({
      type: MedusaError.Types.NOT_ALLOWED,
      message: expect.stringContaining("the payment link for 343.00 DKK on order #12 no longer fits the order (56.88 DKK is due now)"),
    })
    expect(sandbox.ledger()).toHaveLength(before)
    expect(warnings.at(-1)).toMatch(/send a new link for what is due/)
  } finally {
    linkOrder.summary.pending_difference = 343
  }
})

it("a cart that still costs the session's amount, and a session of no cart (a payment link), are authorized", async () => {
  const p = provider()
  for (const total of [343, null]) {
    const session = await paid(p, total)
    const result = await p.authorizePayment({ data: session.data as never, context: { idempotency_key: session.id } })
    expect(result.status).toBe(PaymentSessionStatus.AUTHORIZED)
  }
})
