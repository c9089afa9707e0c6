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

const callbackSchema = z.looseObject({
  type: z.string().default("URL"),
  value: z.string().refine(isHttpUrl, "must be an absolute http(s) URL"),
})

export const amountSchema = z.looseObject({
  value: z.number().positive(),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 alphabetic code such as DKK"),
})

export const sessionBodySchema = z.looseObject({
  order: z.looseObject({
    orderId: z.string().min(1).max(100),
    amount: amountSchema,
    orderLines: z.array(z.unknown()).optional(),
    customer: z.looseObject({}).optional(),
    transactionInfo: z.record(z.string(), z.string()).optional(),
  }),
  callbacks: z
    .looseObject({
      success: callbackSchema.optional(),
      failure: callbackSchema.optional(),
      redirect: callbackSchema.optional(),
      notification: callbackSchema.optional(),
      formStyling: z.unknown().optional(),
      bodyFormat: z.unknown().optional(),
    })
    .optional(),
  configuration: z
    .looseObject({
      paymentType: z.string().optional(),
      autoCapture: z.boolean().optional(),
      paymentDisplayType: z.string().optional(),
      country: z.string().optional(),
      language: z.string().optional(),
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

export const linkBodySchema = z.looseObject({
  url: z.string().optional(),
  size: z.unknown().optional(),
  // Seconds the link stays usable; AltaPay's default is a day.
  validityTime: z.number().int().positive().optional(),
  activationTime: z.unknown().optional(),
})

export interface FieldIssue {
  path: string
  message: string
}

export function zodIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }))
}
