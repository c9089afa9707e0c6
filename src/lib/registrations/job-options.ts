/**
 * Options of the plugin's scheduled follow-up jobs (src/jobs), given per AltaPay registration as
 * the provider option `jobs`. Every registration is followed up with its own grace period, batch
 * size and lifetimes; the jobs run at the shortest interval any registration asks for.
 */
import { z } from "zod"

const minutes = z.number().int().min(0)

export const jobOptionsSchema = z
  .object({
    /** How often the jobs run, in minutes. */
    intervalMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(5),
    /**
     * How long after its last change a payment session still pending in Medusa is looked up at
     * AltaPay: the callback and the customer's return normally settle it well within this.
     */
    graceMinutes: z
      .number()
      .int()
      .min(1, "must be at least 1: a reservation is released only when two runs this far apart both find it unused, and 0 would take one run for two")
      .default(15),
    /** Sessions (and payments with Open results) each run looks at, per registration. */
    batchSize: z.number().int().min(1).max(1000).default(50),
    /** After this long without a change, an unpaid session is retired: its AltaPay pages expire. */
    sessionLifetimeMinutes: minutes.default(24 * 60),
    /**
     * A paid session the job could not record yet (Medusa or AltaPay failed, AltaPay's answer was
     * incomplete, the cart cannot complete) is tried again after intervalMinutes, then twice that,
     * and so on up to this many minutes between tries. It is never released for having failed.
     */
    retryMaxMinutes: z
      .number()
      .int()
      .min(1)
      .default(6 * 60),
    /** After this many failed tries the merchant is told (admin notification), once; the job keeps trying. */
    maxAttempts: z.number().int().min(1).max(100).default(5),
    /** An Open refund or capture AltaPay still does not show after this long is recorded as failed. */
    openResultTimeoutHours: z.number().int().min(1).default(72),
    /** An uncaptured reservation whose AltaPay authorisation expires within this many days is told to the merchant (once per expiry date). */
    expiryNoticeDays: z.number().int().min(1).max(30).default(2),
  })
  .strict()

export type JobOptions = z.output<typeof jobOptionsSchema>

export const DEFAULT_JOB_OPTIONS: JobOptions = jobOptionsSchema.parse({})
