/**
 * A charge's `Result=Redirect`: the 3-D Secure page the customer must be sent to. Its shape is
 * AltaPay's example on "VerifyCard as unscheduled Charges" (`<RedirectResponse><Url/><Method/><Data/></RedirectResponse>`);
 * a filled Data holds the form fields as `<Item key="PaReq">…</Item>` (AltaPay's schema: sdk-java
 * `APIResponse.xsd` RedirectResponseData, sdk-csharp `RedirectResponseDataItem`, api-php `Embeds/Item`).
 */
import { z } from "zod"
import { attr, isRecord, list, textOf } from "../xml-readers"
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
  return { url: checked.data.url, method: checked.data.method.toUpperCase(), data: formFields(node.Data) }
}

/** Data's Items by their `key` attribute; an Item without a key names no field and is skipped. */
function formFields(data: unknown): Record<string, string> {
  const fields: Record<string, string> = {}
  if (!isRecord(data)) return fields
  for (const item of list(data.Item)) {
    const key = attr(item, "key")
    if (key) fields[key] = textOf(item) ?? ""
  }
  return fields
}
