/**
 * zod shapes of the Checkout API's JSON. Required fields are enforced; unknown fields are kept
 * (looseObject), because AltaPay adds fields and callers may need them.
 */
import { z } from "zod"

const addressSchema = z.looseObject({
  street: z.string().optional(),
  city: z.string().optional(),
  zipCode: z.string().optional(),
  country: z.string().optional(),
  region: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
})

export const customerSchema = z.looseObject({
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  billingAddress: addressSchema.optional(),
  shippingAddress: addressSchema.optional(),
})
export type CheckoutCustomer = z.infer<typeof customerSchema>

const callbackSchema = z.looseObject({ type: z.string(), value: z.string() })

export const sessionSchema = z.looseObject({
  sessionId: z.string().min(1),
  order: z
    .looseObject({
      orderId: z.string().optional(),
      amount: z.looseObject({ value: z.number(), currency: z.string() }).optional(),
    })
    .optional(),
  callbacks: z.record(z.string(), z.unknown()).optional(),
  configuration: z.record(z.string(), z.unknown()).optional(),
  status: z.string().optional(),
})
export type CheckoutSession = z.infer<typeof sessionSchema>

export const paymentMethodSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().optional(),
  name: z.string().optional(),
  logoUrl: z.string().nullish(),
  onInitiatePayment: z.looseObject({ type: z.string().optional(), value: z.unknown().optional() }).nullish(),
  metadata: z.looseObject({ terminalName: z.string().optional() }).nullish(),
})
export type PaymentMethod = z.infer<typeof paymentMethodSchema>
export const paymentMethodsSchema = z.looseObject({ methods: z.array(paymentMethodSchema) })

export const createdPaymentSchema = z.looseObject({
  paymentId: z.string().min(1),
  shopOrderId: z.string().optional(),
  status: z.string().optional(),
  type: z.string().optional(),
  url: z.string().optional(),
})
export type CreatedPayment = z.infer<typeof createdPaymentSchema>

export const paymentSchema = z.looseObject({
  paymentId: z.string().min(1),
  sessionId: z.string().optional(),
  shopOrderId: z.string().optional(),
  status: z.string().min(1),
  transactionId: z.string().nullish(),
  paymentMethodId: z.string().nullish(),
  terminal: z.string().nullish(),
  amount: z.looseObject({ value: z.number(), currency: z.string() }).nullish(),
  maskedPan: z.string().nullish(),
  cardScheme: z.string().nullish(),
  reason: z.string().nullish(),
})
export type CheckoutPayment = z.infer<typeof paymentSchema>

// CreatePaymentLink: "Response will contain id, paymentLink and qrCode fields". No expiry comes
// back: whoever shows one computes it from the validityTime sent.
export const paymentLinkSchema = z.looseObject({
  id: z.string().optional(),
  paymentLink: z.string().min(1),
  qrCode: z.string().optional(),
})
export type PaymentLink = z.infer<typeof paymentLinkSchema>

export { callbackSchema }
