/**
 * The follow-up of money attempts the door could not settle (no answer, and AltaPay could not be
 * asked): a capture, refund, release or order edit's update of a payment, a merchant's charge on a
 * saved card. The merchant may never press the button again, so each run asks AltaPay:
 *
 * - made at AltaPay, not recorded in Medusa: recorded through Medusa's own workflow for the same
 *   amount (capture, refund, the merchant-charge workflow, the edit's cancel of the old payment:
 *   uncertain-order-edit.ts), whose call into the provider goes through the door and adopts the
 *   attempt: nothing is sent to AltaPay again, and the merchant is told. What Medusa refuses (the
 *   amount no longer fits) is told to the merchant to settle.
 * - not made, and AltaPay has had twice the answer timeout to make it: forgotten; an order edit's
 *   update, which Medusa's edit waits on, is made now (uncertain-order-edit.ts).
 * - not made yet: looked at again next run.
 *
 * A customer's charge on a saved card is the session follow-up's (it finds the session's charge).
 */
import type { IPaymentModuleService, MedusaContainer, PaymentDTO } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { minorToDecimal, minorToNumber } from "../../altapay"
import { pickTransaction } from "../medusa-mapping/status"
import { AttemptBook, UncertainIndex, type Attempt } from "../money-door/attempts"
import { happenedOn, recordedIn, transactionSubject } from "../money-door/transaction-record"
import { openPaymentData } from "../payment-data/data"
import { altapayPaymentOrder } from "../medusa-mapping/altapay-payment"
import { changingOrderMoney } from "./medusa-lock"
import type { AltaPayRegistration } from "../registrations/registrations"
import { registeredSavedCardsModule } from "../saved-cards/module"
import { isChargeFor } from "../saved-cards/merchant-charge/context"
import type { MerchantChargeDetail } from "../saved-cards/merchant-charge/at-altapay"
import { postFeedNotice } from "./merchant-notice"
import { messageOf, type RunReport } from "./run-report"
import { chargeOrderOnSavedCard } from "../saved-cards/merchant-charge/charge"
import { recordAgreementCharge } from "../saved-cards/merchant-charge/record"
import { isCanceledOrder, refundOfCanceledOrder } from "../medusa-mapping/canceled-order-refund"
import { finishOrderEdit } from "./uncertain-order-edit"

/** made: an order edit's update AltaPay never made, made by the follow-up (uncertain-order-edit.ts). */
type Outcome = "recorded" | "made" | "not made" | "still uncertain" | "needs the merchant"

export async function followUpUncertainMoney(container: MedusaContainer, registration: AltaPayRegistration, now: Date, report: RunReport): Promise<void> {
  const book = new AttemptBook(registration.scaleOut.store)
  const index = new UncertainIndex(book.store, registration.scaleOut.paymentLock)
  const subjects = await index.list()
  report.looked(registration.providerId, subjects.length)
  await report.each("the money attempts of", subjects, async (subject) => {
    const attempts = (await book.list(subject)).filter((a) => a.uncertain)
    if (attempts.length === 0) return index.forget(subject)
    const settle = subject.startsWith(transactionSubject("")) ? settlePaymentAttempt : settleChargeAttempt
    const unsettled: Attempt[] = []
    for (const attempt of attempts) {
      const outcome = await settle(container, registration, subject, attempt, now)
      if (outcome === undefined) return // another registration's subject
      report.count(outcome)
      if (outcome === "still uncertain") unsettled.push(attempt)
      if (outcome === "not made") await dropAttempt(book, subject, attempt)
    }
    if (unsettled.length === 0) await index.forget(subject)
  })
}

/** A capture, refund or release of one payment (undefined: the payment is not this registration's). */
async function settlePaymentAttempt(container: MedusaContainer, registration: AltaPayRegistration, subject: string, attempt: Attempt, now: Date): Promise<Outcome | undefined> {
  const transactionId = subject.slice(transactionSubject("").length)
  const paymentOfTransaction = () => medusaPaymentOf(container, registration, transactionId)
  const payment = await paymentOfTransaction()
  if (!payment) return undefined
  const record = { transaction: pickTransaction(await registration.client.gateway.payments({ transactionId })) }
  const made = happenedOn(record, attempt)
  if (!made) {
    const unmade = attempt.unsent ? "not made" : outcomeUnmade(registration, attempt, now)
    // An order edit's update AltaPay never made is made now (once AltaPay has had time for the first): Medusa's edit waits on it.
    if (attempt.kind !== "order-update" || unmade === "still uncertain") return unmade
  }
  // Medusa's workflows change the order's money: after an admin's capture, refund or cancel of it under way, never beside
  // it, and from the payment as that left it (a retry of the admin's may have recorded the attempt meanwhile).
  const recordInMedusa = async (): Promise<Outcome> => {
    const latest = (await paymentOfTransaction()) ?? payment
    const data = openPaymentData(latest.data, registration.keys)
    if (made && data.sealed && recordedIn(data.data, attempt)) return "recorded"
    if (attempt.kind === "order-update") {
      const verdict = await finishOrderEdit(container, registration, attempt, latest, data.sealed ? data.data : undefined, orderId, made)
      return "description" in verdict ? tell(container, attempt, verdict.outcome, verdict.description, latest) : verdict.outcome
    }
    return recordPaymentAttempt(container, attempt, latest, !!orderId && (await isCanceledOrder(container, orderId)))
  }
  const orderId = (await altapayPaymentOrder(container, payment.id))?.orderId
  return orderId ? changingOrderMoney(container, orderId, recordInMedusa, "still uncertain") : recordInMedusa()
}

/**
 * Records in Medusa, through its own workflow, an attempt AltaPay made; the provider adopts it
 * (nothing is sent again). A refund of a canceled order's payment (the cancel's own, whose answer
 * was lost) on the payment alone: the cancel booked it on the order (canceled-order-refund.ts).
 */
async function recordPaymentAttempt(container: MedusaContainer, attempt: Attempt, payment: PaymentDTO, orderCanceled: boolean): Promise<Outcome> {
  const amount = minorToNumber(attempt.amountMinor, attempt.currency)
  const what = `AltaPay ${attempt.kind} ${attempt.id} of ${minorToDecimal(attempt.amountMinor, attempt.currency)} ${attempt.currency} on payment ${payment.id}`
  try {
    if (attempt.kind === "capture") await capturePaymentWorkflow(container).run({ input: { payment_id: payment.id, amount } })
    else if (attempt.kind === "refund") {
      const refund = { payment_id: payment.id, amount, note: `AltaPay refund ${attempt.id}, recorded by the follow-up job` }
      await (orderCanceled ? refundOfCanceledOrder(container, refund) : refundPaymentWorkflow(container).run({ input: refund }))
    } else return await tell(container, attempt, "needs the merchant", `${what} went through at AltaPay though nobody heard back: cancel the payment in Medusa to match.`) // a release
  } catch (error) {
    return tell(
      container,
      attempt,
      "needs the merchant",
      `${what} went through at AltaPay though nobody heard back, and Medusa refused to record it (${messageOf(error)}). Record it by hand, or settle it in AltaPay.`
    )
  }
  return tell(container, attempt, "recorded", `${what} went through at AltaPay though nobody heard back; it is now recorded in Medusa (nothing was sent again).`, payment)
}

/** A merchant's charge on a saved card, for one payment collection. */
async function settleChargeAttempt(container: MedusaContainer, registration: AltaPayRegistration, subject: string, attempt: Attempt, now: Date): Promise<Outcome | undefined> {
  const detail = attempt.detail as MerchantChargeDetail | undefined
  if (attempt.kind !== "merchant-charge" || !detail) return "not made"
  const collectionId = subject.slice(subject.indexOf(":") + 1)
  const savedCards = registeredSavedCardsModule(container)
  const [card] = (await savedCards?.listAltapaySavedCards({ provider_id: registration.providerId, agreement_id: detail.agreement_id }, { take: 1, withDeleted: true })) ?? []
  if (!card) return undefined
  const setUp = pickTransaction(await registration.client.gateway.payments({ transactionId: detail.agreement_id }))
  const charges = setUp?.shopOrderId ? await registration.client.gateway.payments({ shopOrderId: setUp.shopOrderId }) : []
  const charge = charges.find((t) => isChargeFor(t, collectionId) && t.reservedAmount?.minor === attempt.amountMinor)
  if (!charge) return outcomeUnmade(registration, attempt, now)
  const what = `AltaPay charge ${attempt.id} of ${minorToDecimal(attempt.amountMinor, attempt.currency)} ${attempt.currency} on order ${detail.order_id}'s saved card`
  try {
    // The door finds this charge at AltaPay and adopts it: the same steps as the admin's "Charge saved card", under its lock.
    const recorded = await changingOrderMoney(
      container,
      detail.order_id,
      async () => {
        // Another server's run may have recorded it while this one waited (which dropped it): charging
        // again would be refused for want of an amount due, and told as money to settle.
        const book = new AttemptBook(registration.scaleOut.store)
        if (!(await book.list(subject)).some((a) => a.id === attempt.id)) return "elsewhere"
        // The admin's retry adopted and recorded it (the door keeps an attempt it adopts under the same id).
        if (await medusaPaymentOf(container, registration, charge.transactionId)) {
          await dropAttempt(book, subject, attempt)
          return "elsewhere"
        }
        const found = await chargeOrderOnSavedCard(container, {
          order_id: detail.order_id,
          saved_card_id: card.id,
          capture: detail.capture,
          unscheduled_type: detail.unscheduled_type as never,
        })
        await recordAgreementCharge(container, found) // which drops the attempt
        return "here"
      },
      "busy"
    )
    if (recorded === "busy") return "still uncertain"
    if (recorded === "elsewhere") return "recorded"
  } catch (error) {
    return tell(
      container,
      attempt,
      "needs the merchant",
      `${what} (transaction ${charge.transactionId}) went through at AltaPay though nobody heard back, and could not be recorded (${messageOf(error)}). Record it, or refund it in AltaPay.`
    )
  }
  return tell(
    container,
    attempt,
    "recorded",
    `${what} (transaction ${charge.transactionId}) went through at AltaPay though nobody heard back; it is now recorded on the order (nothing was charged again).`
  )
}

/** Medusa's payment holding AltaPay transaction `transactionId`, with its captures and refunds; undefined when none does. */
async function medusaPaymentOf(container: MedusaContainer, registration: AltaPayRegistration, transactionId: string): Promise<PaymentDTO | undefined> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  return (
    await payments.listPayments({ provider_id: registration.providerId, data: { transaction_id: transactionId } } as never, { relations: ["captures", "refunds"], take: 1 })
  )[0]
}

/** Not made: forgotten once AltaPay has had twice the answer timeout; until then looked at again. */
function outcomeUnmade(registration: AltaPayRegistration, attempt: Attempt, now: Date): Outcome {
  return now.getTime() - attempt.at > 2 * registration.options.headersTimeoutMs ? "not made" : "still uncertain"
}

async function dropAttempt(book: AttemptBook, subject: string, attempt: Attempt): Promise<void> {
  await book.save(
    subject,
    (await book.list(subject)).filter((a) => a.id !== attempt.id)
  )
}

const TITLES = { recorded: "AltaPay: an unanswered movement recorded", made: "AltaPay: an order edit's reservation update made" }

async function tell(container: MedusaContainer, attempt: Attempt, outcome: Outcome, description: string, payment?: PaymentDTO): Promise<Outcome> {
  const title = TITLES[outcome as keyof typeof TITLES] ?? "AltaPay: an unanswered movement needs you"
  await postFeedNotice(container, `altapay-uncertain-${outcome}-${attempt.id}`, { title, description }, payment ? `payment ${payment.id}` : `attempt ${attempt.id}`)
  return outcome
}
