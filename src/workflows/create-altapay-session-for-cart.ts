/**
 * The storefront's AltaPay session for a cart, built entirely on the server: the cart is loaded
 * here, its order lines are computed here and handed to the provider through the payment
 * session's `context` (Medusa passes providers no line items, and session `data` is
 * browser-controlled). Runs Medusa's own payment-collection and payment-session workflows, so
 * their checks (provider enabled in the region, customer account holder) and compensation apply.
 *
 * A matching AltaPay session (same amount, same lines) is reused instead of replaced: replacing
 * one the customer has just paid would release that payment.
 */
import {
  acquireLockStep,
  createPaymentCollectionForCartWorkflow,
  createPaymentSessionsWorkflow,
  refreshPaymentCollectionForCartWorkflow,
  releaseLockStep,
} from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { loadAltaPayCartStep, type LoadAltaPayCartInput } from "./steps/load-altapay-cart"

export type CreateAltaPaySessionForCartInput = LoadAltaPayCartInput

export interface CreateAltaPaySessionForCartOutput {
  payment_session_id: string
  altapay_session_id: string
  /** ISO 4217, upper case: the cart's currency (it picks the registration's terminal). */
  currency_code: string
  /** True when an existing matching session was returned instead of a new one. */
  reused: boolean
}

export const createAltaPaySessionForCartWorkflowId = "create-altapay-session-for-cart"

export const createAltaPaySessionForCartWorkflow = createWorkflow({ name: createAltaPaySessionForCartWorkflowId, idempotent: false }, (input: CreateAltaPaySessionForCartInput) => {
  const lockKey = transform({ input }, ({ input }) => `altapay-session:${input.cart_id}`)
  // Two tabs asking at once must not each replace the other's session.
  acquireLockStep({ key: lockKey, timeout: 10, ttl: 60 })

  const cart = loadAltaPayCartStep(input)

  const createdCollection = when("altapay-cart-has-no-payment-collection", { cart }, ({ cart }) => !cart.payment_collection_id).then(() =>
    createPaymentCollectionForCartWorkflow.runAsStep({ input: { cart_id: input.cart_id } })
  )
  when("altapay-payment-collection-is-stale", { cart }, ({ cart }) => !!cart.payment_collection_id && cart.payment_collection_stale).then(() => {
    refreshPaymentCollectionForCartWorkflow.runAsStep({ input: { cart_id: input.cart_id } })
  })

  const sessionInput = transform({ cart, createdCollection, input }, ({ cart, createdCollection, input }) => ({
    payment_collection_id: (cart.payment_collection_id ?? createdCollection?.id) as string,
    provider_id: input.provider_id,
    // Medusa's own store route passes the authenticated customer the same way.
    customer_id: input.customer_id,
    // flow "storefront": the browser creates the payment with its CUSTOMER token (no server-made page).
    context: { altapay: { order_lines: cart.order_lines, customer: cart.customer, flow: "storefront" } },
  }))
  const created = when("altapay-session-not-reusable", { cart }, ({ cart }) => !cart.reusable_session).then(() => createPaymentSessionsWorkflow.runAsStep({ input: sessionInput }))

  releaseLockStep({ key: lockKey })

  const result = transform({ cart, created }, ({ cart, created }): CreateAltaPaySessionForCartOutput => {
    if (cart.reusable_session) return { ...cart.reusable_session, currency_code: cart.currency_code, reused: true }
    const altapaySessionId = (created?.data as { altapay_session_id?: unknown } | undefined)?.altapay_session_id
    if (!created?.id || typeof altapaySessionId !== "string") {
      throw new Error("The AltaPay provider created a payment session without an AltaPay session id.")
    }
    return { payment_session_id: created.id, altapay_session_id: altapaySessionId, currency_code: cart.currency_code, reused: false }
  })
  return new WorkflowResponse(result)
})
