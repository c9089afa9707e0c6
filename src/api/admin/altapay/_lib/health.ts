/**
 * The figures of the admin's AltaPay page (GET /admin/altapay/health): per registration its set-up
 * and the posts AltaPay sent (lib/health/recorder.ts), the follow-up jobs' last runs, the money
 * attempts still uncertain (the money door's index) with the order each belongs to, and the open
 * payout exceptions.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { namedTerminals } from "../../../../check/terminals"
import { healthOn } from "../../../../lib/health/hooks"
import type { RegistrationHealth, UncertainAttemptView } from "../../../../lib/health/views"
import { orderOfCollection } from "../../../../lib/medusa-mapping/order-of-session"
import { AttemptBook, UncertainIndex, collectionSubject } from "../../../../lib/money-door/attempts"
import { transactionSubject } from "../../../../lib/money-door/transaction-record"
import { listWithChargebacks } from "../../../../lib/payouts/chargeback-exceptions"
import { registeredPayoutsModule } from "../../../../lib/payouts/module"
import { localSandbox, notificationUrl } from "../../../../lib/registrations/options"
import { usesTestGateway } from "../../../../lib/registrations/production-urls"
import type { AltaPayRegistration } from "../../../../lib/registrations/registrations"
import { exceptionQuery, unfundedCutoff } from "./payouts-query"

/** The most uncertain subjects the page looks up (each costs a query or two). */
const MAX_UNCERTAIN_SHOWN = 50

export async function registrationHealth(registration: AltaPayRegistration): Promise<RegistrationHealth> {
  const { options } = registration
  return {
    providerId: registration.providerId,
    gateway: localSandbox(options) ? "sandbox" : usesTestGateway(options) ? "test" : "production",
    terminals: namedTerminals(options),
    urls: {
      checkout: options.checkoutUrl,
      gateway: options.gatewayUrl,
      notification: notificationUrl(options),
      success: options.successUrl ?? null,
      failure: options.failureUrl ?? null,
    },
    secrets: { password: !!options.password, callbackSecret: !!options.callbackSecret, paymentDataSecret: !!options.paymentDataSecret },
    callbackSources: options.callbackSources === undefined ? "any" : options.callbackSources === "altapay" ? "altapay" : "list",
    posts: await healthOn(registration.scaleOut).posts(registration.providerId),
  }
}

/**
 * The money attempts the door could not settle, from its index (shared by every registration: one
 * store), each with the payment and order it is on where Medusa has them.
 */
export async function uncertainAttempts(scope: MedusaContainer, registrations: AltaPayRegistration[]): Promise<UncertainAttemptView[]> {
  const first = registrations[0]
  if (!first) return []
  const book = new AttemptBook(first.scaleOut.store)
  const subjects = (await new UncertainIndex(book.store, first.scaleOut.paymentLock).list()).slice(-MAX_UNCERTAIN_SHOWN)
  const views: UncertainAttemptView[] = []
  for (const subject of subjects) {
    const attempts = (await book.list(subject)).filter((a) => a.uncertain)
    if (attempts.length === 0) continue
    const where = await whereIs(scope, subject)
    for (const a of attempts) views.push({ kind: a.kind, amountMinor: a.amountMinor, currency: a.currency, at: a.at, ...where })
  }
  return views.sort((a, b) => b.at - a.at)
}

type Where = Pick<UncertainAttemptView, "providerId" | "paymentId" | "orderId" | "orderDisplayId">

async function whereIs(scope: MedusaContainer, subject: string): Promise<Where> {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  let collectionId: string | undefined
  let payment: { id: string; provider_id: string } | undefined
  if (subject.startsWith(transactionSubject(""))) {
    const payments = scope.resolve<IPaymentModuleService>(Modules.PAYMENT)
    const transactionId = subject.slice(transactionSubject("").length)
    const [found] = await payments.listPayments({ data: { transaction_id: transactionId } } as never, { select: ["id", "provider_id", "payment_collection_id"], take: 1 })
    payment = found
    collectionId = found?.payment_collection_id
  } else if (subject.startsWith(collectionSubject(""))) {
    collectionId = subject.slice(collectionSubject("").length)
  }
  const order = collectionId ? await orderOfCollection(query, collectionId) : undefined
  return { providerId: payment?.provider_id ?? null, paymentId: payment?.id ?? null, orderId: order?.id ?? null, orderDisplayId: order?.display_id ?? null }
}

/** Open payout exceptions (chargebacks included), counted as the exceptions page lists them; null without the payouts module. */
export async function openPayoutExceptions(scope: MedusaContainer): Promise<{ count: number } | null> {
  const payouts = registeredPayoutsModule(scope)
  if (!payouts) return null
  const cutoff = unfundedCutoff(scope, undefined)
  const { count } = await listWithChargebacks(scope, undefined, { limit: 1, offset: 0 }, (kinds, page) => payouts.listPayoutExceptions(exceptionQuery(cutoff, kinds, page)))
  return { count }
}
