/**
 * captureReservation's shipment tracking (`trackingInfo`), checked and written as form fields.
 * AltaPay's captureReservation page lists `trackingInfo[<i>][trackingId]`, `[refTrackingId]`,
 * `[companyName]`, `[method]`, `[trackingNumber]`, `[trackingUri]` and `[type]` (e.g. SHIPPING),
 * with no lengths or allowed values; so we only refuse what cannot be sent: a non-string field, an
 * empty text, an unknown field or an entry with no field at all.
 *
 * AltaPay's own clients send the carrier and number as `shippingTrackingInfo[<i>][shippingCompany]`
 * and `[trackingNumber]` instead (api-php CaptureReservation::setTrackingInfo, Magento's
 * CaptureObserver). Which one the gateway reads is not written anywhere, and each is sent to it by
 * AltaPay (the page documents one, its plugin sends the other), so we send both: the documented
 * form whole, and the plugins' form for what it has (companyName as shippingCompany, trackingNumber).
 */
import { z } from "zod"
import type { ValidationIssue } from "./errors"

/** One shipment (or return) a capture covers; every field is optional and sent as given. */
export interface TrackingInfo {
  trackingId?: string
  /** The trackingId of the shipment this one refers to, e.g. a return of a shipment. */
  refTrackingId?: string
  companyName?: string
  method?: string
  trackingNumber?: string
  trackingUri?: string
  /** e.g. "SHIPPING" (the page's example). */
  type?: string
}

const TRACKING_FIELDS = ["trackingId", "refTrackingId", "companyName", "method", "trackingNumber", "trackingUri", "type"] as const

const text = z.string({ error: "must be text" }).refine((value) => value.trim() !== "", { error: "must not be empty" })
const entrySchema = z
  .strictObject(Object.fromEntries(TRACKING_FIELDS.map((field) => [field, text.optional()])) as Record<(typeof TRACKING_FIELDS)[number], z.ZodOptional<typeof text>>, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `has unknown field(s) ${issue.keys.join(", ")}` : "must be an object"),
  })
  .refine((entry) => TRACKING_FIELDS.some((field) => entry[field] !== undefined), { error: "needs at least one field" })
const trackingInfoSchema = z.array(entrySchema, { error: "must be a list of tracking entries" })

/** The `trackingInfo[<i>][<field>]` form fields, or the problems that keep them from being sent. */
export function trackingInfoFields(trackingInfo: unknown): { fields: Record<string, string>; issues: ValidationIssue[] } {
  const parsed = trackingInfoSchema.safeParse(trackingInfo)
  if (!parsed.success) {
    return {
      fields: {},
      issues: parsed.error.issues.map((issue) => ({ field: ["trackingInfo", ...issue.path.map(String)].join("."), message: issue.message })),
    }
  }
  const fields: Record<string, string> = {}
  parsed.data.forEach((entry, i) => {
    for (const field of TRACKING_FIELDS) {
      const value = entry[field]
      if (value !== undefined) fields[`trackingInfo[${i}][${field}]`] = value
    }
  })
  parsed.data
    .filter((entry) => entry.companyName !== undefined || entry.trackingNumber !== undefined)
    .forEach((entry, i) => {
      if (entry.companyName !== undefined) fields[`shippingTrackingInfo[${i}][shippingCompany]`] = entry.companyName
      if (entry.trackingNumber !== undefined) fields[`shippingTrackingInfo[${i}][trackingNumber]`] = entry.trackingNumber
    })
  return { fields, issues: [] }
}
