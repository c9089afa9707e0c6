/**
 * Shapes of the checkout API's JSON bodies. Objects are loose: fields we do not model are kept and
 * echoed back, as AltaPay does with the session record.
 */
import { z } from "zod"

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

const httpUrl = z.string().refine(isHttpUrl, "must be an absolute http(s) URL")

// The session's callbacks take two shapes, as AltaPay's own clients send them
// (AltaPay/android-payment-app altapayCheckout/.../model/request/CreateSessionRequest.kt):
// success and failure are { type, value } targets, notification, redirect and formStyling plain
// URL strings. The sandbox refuses the other shape so a client that mixes them up finds out here.
const targetCallback = (name: string) =>
  z.looseObject(
    { type: z.string().min(1), value: httpUrl },
    { error: (issue) => (issue.input === undefined ? undefined : `callbacks.${name} must be an object { type: "URL", value: "<absolute URL>" }, as AltaPay's clients send it`) }
  )
const urlCallback = (name: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? undefined : `callbacks.${name} must be a plain URL string, as AltaPay's clients send it (not { type, value })`) })
    .refine(isHttpUrl, "must be an absolute http(s) URL")

/**
 * shop_orderid as the Merchant API pages type it (createPaymentRequest, createInvoiceReservation,
 * callback_form): the payment made from a session carries its orderId as its shop_orderid.
 */
export const SHOP_ORDER_ID = /^[a-zA-Z0-9-]{1,100}$/

export const amountSchema = z.looseObject({
  value: z.number().positive(),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 alphabetic code such as DKK"),
})

export const sessionBodySchema = z.looseObject({
  order: z.looseObject({
    // Its characters are checked in checkout-api.ts (SHOP_ORDER_ID, unless legacyShopOrderIds).
    orderId: z.string().min(1).max(100),
    amount: amountSchema,
    orderLines: z.array(z.unknown()).optional(),
    customer: z.looseObject({}).optional(),
    transactionInfo: z.record(z.string(), z.string()).optional(),
  }),
  callbacks: z
    .looseObject({
      success: targetCallback("success").optional(),
      failure: targetCallback("failure").optional(),
      redirect: urlCallback("redirect").optional(),
      notification: urlCallback("notification").optional(),
      formStyling: urlCallback("formStyling").optional(),
      // Our name for callback_verify_order on a session (the Checkout API documents none): callbacks/verify-order.ts.
      verifyOrder: urlCallback("verifyOrder").optional(),
    })
    .optional(),
  configuration: z
    .looseObject({
      paymentType: z.string().optional(),
      autoCapture: z.boolean().optional(),
      paymentDisplayType: z.string().optional(),
      country: z.string().optional(),
      language: z.string().optional(),
      bodyFormat: z.enum(["XML", "JSON"]).optional(),
    })
    .optional(),
})

export type SessionBody = z.infer<typeof sessionBodySchema>

export const authenticateBodySchema = z.looseObject({
  role: z.enum(["CUSTOMER", "MERCHANT"]).optional(),
  sessionId: z.uuid().optional(),
})

export const paymentBodySchema = z.looseObject({
  paymentMethodId: z.string().min(1),
  sessionId: z.string().min(1),
})

// CreatePaymentLink: size in pixels; validityTime and activationTime are ints in minutes.
export const linkBodySchema = z.looseObject({
  url: httpUrl.optional(),
  size: z.number().int().positive().optional(),
  validityTime: z.number().int().positive("is minutes, a positive whole number").optional(),
  activationTime: z.number().int().positive("is minutes, a positive whole number").optional(),
})

export interface FieldIssue {
  path: string
  message: string
}

export function zodIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }))
}
