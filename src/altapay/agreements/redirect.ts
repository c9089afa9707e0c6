/**
 * A charge's `Result=Redirect`: the 3-D Secure page the customer must be sent to. Its shape is
 * AltaPay's example on "VerifyCard as unscheduled Charges": `<RedirectResponse><Url/><Method/><Data/></RedirectResponse>`.
 */
import { z } from "zod"
import { isRecord, textOf } from "../xml-readers"
import type { ThreeDSecureRedirect } from "./types"

const redirectSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  method: z.string().regex(/^(GET|POST)$/i),
})

export function redirectOf(body: Record<string, unknown>): ThreeDSecureRedirect | undefined {
  const node = body.RedirectResponse
  if (!isRecord(node)) return undefined
  const checked = redirectSchema.safeParse({ url: textOf(node.Url), method: textOf(node.Method) || "GET" })
  if (!checked.success) return undefined
  // Data's children are the form fields to post (our assumption: AltaPay's example has an empty Data).
  const data: Record<string, string> = {}
  if (isRecord(node.Data)) for (const [key, value] of Object.entries(node.Data)) if (!key.startsWith("@_") && key !== "#text") data[key] = textOf(value) ?? ""
  return { url: checked.data.url, method: checked.data.method.toUpperCase(), data }
}
