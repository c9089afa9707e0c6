/**
 * One whole AltaPay checkout against the running demo store, as a storefront and a merchant
 * would do it: the storefront with @medusajs/js-sdk and the plugin's browser helper, the customer
 * on AltaPay's hosted page, the merchant with the js-sdk admin client (an item captured by itself,
 * then the rest, an item refund and a partial refund).
 */
import Medusa from "@medusajs/js-sdk"
import type { AdminAltaPayPaymentResponse } from "../../src/api/admin/altapay/payments/[id]/route"
import type { AdminAltaPayItemRefundResponse } from "../../src/api/admin/altapay/payments/[id]/refunds/route"
import type { AdminAltaPayItemCaptureResponse } from "../../src/api/admin/altapay/payments/[id]/captures/route"
import { minorToDecimal } from "../../src/altapay/money"
import type { Sandbox } from "../../src/sandbox"
import { createPayment, listPaymentMethods, startAltaPayCheckout } from "../../src/storefront"
import type { DemoSeed } from "../src/scripts/seed"
import { flowStep, say } from "./progress"

export interface CheckoutInput {
  medusaUrl: string
  seed: DemoSeed
  adminLogin: { email: string; password: string }
  sandbox: Sandbox
}

export interface CheckoutResult {
  orderId: string
  paymentId: string
  altapay: AdminAltaPayPaymentResponse["altapay_payment"]
  medusa: { amount: number; captured: number; refunded: number; captures: number; refunds: Array<{ amount: number; note: string | null }> }
}

const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", country_code: "dk", phone: "+4512345678" }
const REFUND_AMOUNT = 25
/** The js-sdk keeps tokens in localStorage by default, which Node has not. */
const JWT_IN_MEMORY = { type: "jwt", jwtTokenStorageMethod: "memory" } as const

const dkk = (value: unknown) => `${Number(value).toFixed(2)} DKK`

export async function runCheckout({ medusaUrl, seed, adminLogin, sandbox }: CheckoutInput): Promise<CheckoutResult> {
  const store = new Medusa({ baseUrl: medusaUrl, publishableKey: seed.publishableKey, auth: JWT_IN_MEMORY })

  say("Storefront")
  const cart = await flowStep(
    async () => {
      const { cart: created } = await store.store.cart.create({
        region_id: seed.regionId,
        sales_channel_id: seed.salesChannelId,
        email: "karen@example.com",
        items: [
          { variant_id: seed.variantIds[0], quantity: 2 },
          { variant_id: seed.variantIds[1], quantity: 1 },
        ],
        shipping_address: ADDRESS,
        billing_address: ADDRESS,
      })
      return (await store.store.cart.addShippingMethod(created.id, { option_id: seed.shippingOptionId })).cart
    },
    (c) => `cart: ${c.items?.map((i) => `${i.quantity} × ${i.product_title}`).join(", ")}, shipping: ${dkk(c.total)} (VAT ${dkk(c.tax_total)})`
  )

  const session = await flowStep(
    // The demo store registers AltaPay once per terminal: name the one to pay with.
    () => startAltaPayCheckout({ sdk: store, cartId: cart.id, providerId: "pp_altapay_card" }),
    (s) => `AltaPay session + CUSTOMER token on ${s.providerId} (POST /store/carts/:id/altapay-session)`
  )

  const payment = await flowStep(
    async () => {
      const methods = await listPaymentMethods(session)
      const card = methods.find((m) => m.metadata?.terminalName === session.terminal) ?? methods.find((m) => m.type === "CARD") ?? methods[0]
      if (!card) throw new Error("AltaPay offered no payment method for the session.")
      return { method: card, ...(await createPayment(session, card.id)) }
    },
    (p) => `payment created with the token (${p.method.name ?? p.method.id}): ${new URL(p.redirectUrl).pathname}`
  )

  await flowStep(
    () => payOnHostedPage(payment.redirectUrl),
    (p) =>
      `customer pays on AltaPay's page (authorize); AltaPay posts the return to Medusa, which completes the cart: ${p.status}${p.location ? ` to ${landingText(p.location)}` : ""}`
  )
  await flowStep(
    async () => {
      const delivery = sandbox
        .ledger()
        .filter((e) => e.operation === "callback.notification")
        .at(-1)
      if (!delivery) throw new Error("The sandbox sent no notification callback after the payment.")
      if (delivery.status !== 200) throw new Error(`Medusa answered the notification callback with ${delivery.status}${delivery.error ? ` (${delivery.error})` : ""}.`)
      return delivery
    },
    (d) => `AltaPay's callback POST ${d.url ? new URL(d.url).pathname : "?"}: ${d.status}`
  )

  const order = await flowStep(
    async () => {
      // The plugin's return endpoint completed the cart already; completing it again returns that order.
      const completed = await store.store.cart.complete(cart.id)
      if (completed.type !== "order") throw new Error(`The cart did not complete: ${completed.error?.message ?? JSON.stringify(completed)}`)
      return completed.order
    },
    (o) => `order #${o.display_id} (${o.id}): ${dkk(o.total)}`
  )

  say("Admin")
  const admin = new Medusa({ baseUrl: medusaUrl, auth: JWT_IN_MEMORY })
  await flowStep(
    () => admin.auth.login("user", "emailpass", adminLogin),
    () => `signed in as ${adminLogin.email}`
  )
  const { order: adminOrder } = await admin.admin.order.retrieve(order.id, {
    fields: "id,items.id,items.title,items.quantity,items.total,payment_collections.payments.id",
  })
  const paymentId = adminOrder.payment_collections?.[0]?.payments?.[0]?.id
  if (!paymentId) throw new Error(`Order ${order.id} has no payment.`)
  const item = adminOrder.items?.find((i) => i.quantity === 1) ?? adminOrder.items?.[0]
  if (!item) throw new Error(`Order ${order.id} has no items.`)

  // What was shipped first: one item, with its lines exactly as AltaPay reserved them.
  const itemCapture = await flowStep(
    () =>
      admin.client.fetch<Extract<AdminAltaPayItemCaptureResponse, { preview: false }>>(`/admin/altapay/payments/${paymentId}/captures`, {
        method: "POST",
        body: { items: [{ line_item_id: item.id, quantity: 1 }] },
      }),
    ({ capture }) =>
      `captured 1 × ${item.title}: ${minorToDecimal(capture.amount_minor, capture.currency_code)} ${capture.currency_code.toUpperCase()}, its ${capture.order_lines.length} reserved AltaPay line(s) (POST /admin/altapay/payments/:id/captures)`
  )
  const { medusa: afterItem } = itemCapture.altapay_payment
  const rest = minorToDecimal(afterItem.amount.minor - afterItem.captured.minor, afterItem.amount.currency)
  await flowStep(
    () => admin.admin.payment.capture(paymentId, { amount: Number(rest) }),
    () => `captured the rest, ${rest} DKK (POST /admin/payments/:id/capture)`
  )
  await flowStep(
    () =>
      admin.client.fetch<AdminAltaPayItemRefundResponse>(`/admin/altapay/payments/${paymentId}/refunds`, {
        method: "POST",
        body: { items: [{ line_item_id: item.id, quantity: 1 }], note: "Demo: one item returned" },
      }),
    ({ refund }) => `refunded 1 × ${item.title}: ${refund.amount.decimal} DKK (POST /admin/altapay/payments/:id/refunds)`
  )
  await flowStep(
    () => admin.admin.payment.refund(paymentId, { amount: REFUND_AMOUNT, note: "Demo: goodwill" }),
    () => `refunded ${dkk(REFUND_AMOUNT)} (POST /admin/payments/:id/refund)`
  )

  const { altapay_payment: view } = await admin.client.fetch<AdminAltaPayPaymentResponse>(`/admin/altapay/payments/${paymentId}`)
  const { payment: medusaPayment } = await admin.admin.payment.retrieve(paymentId, { fields: "id,amount,*captures,*refunds" })
  const sum = (list: Array<{ amount: unknown }> | undefined) => (list ?? []).reduce((total, entry) => total + Number(entry.amount), 0)
  const result: CheckoutResult = {
    orderId: order.id,
    paymentId,
    altapay: view,
    medusa: {
      amount: Number(medusaPayment.amount),
      captured: sum(medusaPayment.captures),
      refunded: sum(medusaPayment.refunds),
      captures: medusaPayment.captures?.length ?? 0,
      refunds: (medusaPayment.refunds ?? []).map((r) => ({ amount: Number(r.amount), note: r.note ?? null })),
    },
  }
  printComparison(result)
  assertAgreement(result)
  return result
}

/** The landing page AltaPay sent the customer to, with what it was told (outcome, order). */
function landingText(location: string): string {
  const url = new URL(location)
  return `${url.pathname} (outcome ${url.searchParams.get("outcome") ?? "?"}, order ${url.searchParams.get("order_id") || "-"})`
}

/** Fetches AltaPay's payment page and submits its form with the authorize button, as a browser would. */
async function payOnHostedPage(pageUrl: string): Promise<{ status: number; location: string | null }> {
  const page = await fetch(pageUrl)
  const html = await page.text()
  const action = /<form[^>]*action="([^"]+)"/i.exec(html)?.[1]
  if (!page.ok || !action) throw new Error(`AltaPay's payment page (${pageUrl}) answered ${page.status} without a payment form.`)
  const submitted = await fetch(new URL(action.replace(/&amp;/g, "&"), pageUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ outcome: "authorize" }).toString(),
    redirect: "manual",
  })
  await submitted.text()
  if (submitted.status >= 400) throw new Error(`AltaPay's payment page refused the payment (${submitted.status}).`)
  return { status: submitted.status, location: submitted.headers.get("location") }
}

function printComparison({ altapay: view, medusa, paymentId }: CheckoutResult): void {
  const a = view.altapay
  const money = (m: { decimal: string; currency: string } | null) => (m ? `${m.decimal} ${m.currency}` : "-")
  const left = [
    `AltaPay transaction ${a.transaction_id ?? "-"}${a.live ? "" : " (stored, AltaPay unreachable)"}`,
    `  status     ${a.status ?? "-"}`,
    `  reserved   ${money(a.reserved)}`,
    `  captured   ${money(a.captured)}`,
    `  refunded   ${money(a.refunded)}`,
    `  reconciliation identifiers:`,
    ...a.reconciliation_identifiers.map((r) => `    ${r.type.padEnd(9)} ${money(r.amount).padStart(12)}  ${r.id}`),
  ]
  const right = [
    `Medusa payment ${paymentId}`,
    `  amount     ${dkk(medusa.amount)}`,
    `  captured   ${dkk(medusa.captured)} (${medusa.captures} capture${medusa.captures === 1 ? "" : "s"})`,
    `  refunded   ${dkk(medusa.refunded)} (${medusa.refunds.length} refund${medusa.refunds.length === 1 ? "" : "s"})`,
    ...medusa.refunds.map((r) => `    ${r.amount.toFixed(2).padStart(8)}  ${r.note ?? ""}`),
  ]
  const width = Math.max(...left.map((l) => l.length)) + 4
  say()
  for (let i = 0; i < Math.max(left.length, right.length); i++) say(`${(left[i] ?? "").padEnd(width)}${right[i] ?? ""}`)
  say()
}

/** AltaPay and Medusa must tell the same story about the money, or the demo fails. */
function assertAgreement({ altapay: view, medusa }: CheckoutResult): void {
  const a = view.altapay
  const cents = (value: unknown) => Math.round(Number(value) * 100)
  const problems: string[] = []
  if (!a.live) problems.push(`AltaPay could not be read: ${a.error}`)
  if (cents(a.captured?.decimal) !== cents(medusa.captured)) problems.push(`captured: AltaPay ${a.captured?.decimal}, Medusa ${medusa.captured}`)
  if (cents(a.refunded?.decimal) !== cents(medusa.refunded)) problems.push(`refunded: AltaPay ${a.refunded?.decimal}, Medusa ${medusa.refunded}`)
  if (medusa.refunds.length !== 2) problems.push(`Medusa recorded ${medusa.refunds.length} refunds, expected 2`)
  if (problems.length) throw new Error(`AltaPay and Medusa disagree about payment ${view.id}:\n  ${problems.join("\n  ")}`)
}
