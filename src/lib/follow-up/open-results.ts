/**
 * The follow-up of payments with refunds or captures AltaPay answered Open: each is looked up at
 * AltaPay under the payment's lock (the one its refunds and captures take) and its outcome recorded
 * on the payment, where the admin panel shows it. The seal marks such payments
 * (`awaiting_altapay`), so one query on `data` finds them.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { settleOpenResults } from "../payment-data/open-results"
import { hasOpenResults } from "../payment-data/data"
import { changePaymentData } from "../payment-data/writer"
import { registrationDataAccess, type AltaPayRegistration } from "../registrations/registrations"
import { nextBatch } from "./batches"
import type { RunReport } from "./run-report"

export async function followUpOpenResults(container: MedusaContainer, registration: AltaPayRegistration, now: Date, report: RunReport): Promise<void> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const access = registrationDataAccess(registration)
  const { providerId, options } = registration
  const ids = await nextBatch(registration.store, `open-results:${providerId}`, options.jobs.batchSize, async (skip, take) =>
    // A filter on a key of the `data` JSON column (MikroORM queries JSON properties).
    (
      await payments.listPayments({ provider_id: providerId, data: { awaiting_altapay: true } } as never, { select: ["id"], skip, take, order: { created_at: "ASC", id: "ASC" } })
    ).map((p) => p.id)
  )
  report.looked(providerId, ids.length)
  await report.each("the Open results of payment", ids, async (id) => {
    let settled = { succeeded: 0, failed: 0, open: 0 }
    await changePaymentData(
      container,
      id,
      async (latest) => {
        if (!latest.transaction_id || !hasOpenResults(latest)) return undefined
        const result = settleOpenResults(latest, await access.lookupTransaction(latest.transaction_id), now, options.jobs.openResultTimeoutHours)
        settled = result
        return { ...result.data, reconciled: { at: now.toISOString(), by: "job" } }
      },
      access
    )
    report.count("settled as done", settled.succeeded)
    report.count("recorded as failed", settled.failed)
    report.count("still open", settled.open)
  })
}
