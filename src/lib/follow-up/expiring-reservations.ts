/**
 * The follow-up of reservations about to lapse: a payment Medusa has neither captured in full nor
 * canceled whose AltaPay authorisation (AuthorisationExpiryDate, kept in its data) expires within
 * `jobs.expiryNoticeDays` is told to the merchant in the admin's notifications and the log, once per
 * expiry date. After it lapses a card capture needs a new authorisation the issuer may decline
 * (reauth_failed, AltaPay FAQ), and Klarna refuses captures after 28 days.
 */
import type { IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { minorToDecimal, RELEASED_STATUSES, statusIn } from "../../altapay"
import { outsideMovementNotice } from "../callbacks/outside-movements"
import { pickTransaction } from "../medusa-mapping/status"
import { openPaymentData } from "../payment-data/data"
import { expiresSoon, reservationExpiry, type ReservationExpiry } from "../payment-data/reservation-expiry"
import { registrationDataAccess, type AltaPayRegistration } from "../registrations/registrations"
import { nextBatch } from "./batches"
import { postFeedNotice } from "./merchant-notice"
import type { RunReport } from "./run-report"

export async function followUpExpiringReservations(container: MedusaContainer, registration: AltaPayRegistration, now: Date, report: RunReport): Promise<void> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const { providerId, options } = registration
  const { keys } = registrationDataAccess(registration)
  const rows = new Map<string, Record<string, unknown> | null | undefined>()
  const ids = await nextBatch(registration.store, `expiring-reservations:${providerId}`, options.jobs.batchSize, async (skip, take) => {
    const page = await payments.listPayments({ provider_id: providerId, captured_at: null, canceled_at: null } as never, {
      select: ["id", "data"],
      skip,
      take,
      order: { created_at: "ASC", id: "ASC" },
    })
    for (const p of page) rows.set(p.id, p.data)
    return page.map((p) => p.id)
  })
  report.looked(providerId, ids.length)
  await report.each("the reservation expiry of payment", ids, async (id) => {
    const opened = openPaymentData(rows.get(id), keys)
    if (!opened.sealed) return
    const expiry = reservationExpiry(opened.data, now)
    if (!expiresSoon(expiry, options.jobs.expiryNoticeDays)) return
    const transactionId = opened.data.transaction_id ?? ""
    // AltaPay's own record first: a capture or release made in its merchant interface leaves nothing to expire.
    const live = transactionId ? pickTransaction(await registration.client.gateway.payments({ transactionId })) : undefined
    const outside = live && (statusIn(live.transactionStatus, RELEASED_STATUSES) || (live.capturedAmount?.minor ?? 0) >= opened.data.amount_minor) ? live : undefined
    const { currency, amount_minor, captured_minor, refunded_minor } = opened.data
    const notice = outside
      ? outsideMovementNotice({ id, currency_code: currency, amount_minor, captured_minor: captured_minor ?? 0, refunded_minor: refunded_minor ?? 0 }, outside)
      : expiryNotice(id, transactionId, currency, expiry)
    container.resolve<Logger>(ContainerRegistrationKeys.LOGGER).warn(`${notice.title} (${providerId}, payment ${id}): ${notice.description}`)
    await postFeedNotice(container, `altapay-expiry-${id}-${outside ? outside.transactionStatus : expiry.expires_at}`, notice, `payment ${id}`)
    report.count(outside ? "told: changed outside Medusa" : "told: reservation expiring", 1)
  })
}

export function expiryNotice(paymentId: string, transactionId: string, currency: string, expiry: ReservationExpiry): { title: string; description: string } {
  const amount = `${minorToDecimal(expiry.uncaptured_minor, currency)} ${currency.toUpperCase()}`
  const when = expiry.expires_at.replace("T", " ").slice(0, 16) + " UTC"
  return expiry.lapsed
    ? {
        title: "AltaPay reservation lapsed",
        description: `${amount} of payment ${paymentId} (AltaPay transaction ${transactionId}) was never captured and its authorisation lapsed on ${when}. A capture now asks the card issuer for a new authorisation, which may be declined (reauth_failed): capture what you ship now, or ask the customer to pay again.`,
      }
    : {
        title: "AltaPay reservation expires soon",
        description: `${amount} of payment ${paymentId} (AltaPay transaction ${transactionId}) is not captured and its authorisation expires on ${when}. Capture what you will ship before then (the order's AltaPay panel), or cancel the order to release it.`,
      }
}
