/**
 * The request log's options (provider option `requestLog`, issue 43): what the plugin said to
 * AltaPay per payment, shown in the order's AltaPay panel. Off unless the merchant turns it on;
 * bounded per payment in entries and in days.
 */
import { z } from "zod"

export const requestLogOptionsSchema = z
  .object({
    /** true: each call to AltaPay about a payment is kept (an allow-list of fields, ../observability/request-log.ts). */
    enabled: z.boolean().default(false),
    /** Entries kept per payment: the oldest go first. */
    maxEntries: z.number().int().min(1).max(200).default(50),
    /** Days a payment's log is kept after its last entry; an entry older than this is dropped. */
    retentionDays: z.number().int().min(1).max(30).default(7),
  })
  .strict()

export type RequestLogOptions = z.output<typeof requestLogOptionsSchema>
export const DEFAULT_REQUEST_LOG_OPTIONS: RequestLogOptions = requestLogOptionsSchema.parse({})
