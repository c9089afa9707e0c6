/**
 * Adding a card from the customer's account page (issue 32), without a purchase: AltaPay's hosted
 * page with createPaymentRequest `verifyCard` and an unscheduled agreement (AltaPay's way to save a
 * card for later charges, "VerifyCard as unscheduled Charges"; Magento's plugin does the same). The
 * page's callbacks come to the plugin's saved-card return (src/api/altapay/saved-card-return), which
 * keeps the card only as AltaPay's own record of the set-up shows it: the customer it names in its
 * transaction_info (written here, for the signed-in customer), confirmed, a card set up by
 * `verifyCard`. Nothing the post says is taken as it stands.
 */
import { randomBytes } from "node:crypto"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { currencyInfo, statusIn, type GatewayTransaction } from "../../altapay"
import { anonymousLookUps } from "../customer-return/confirm"
import { toMedusaError } from "../medusa-mapping/errors"
import { altapayFromConfig } from "../registrations/from-config"
import { terminalFor } from "../registrations/options"
import { keepAgreementCard } from "./keep-card"
import { registeredSavedCardsModule } from "./module"

/** transaction_info marking a set-up started from the account page, and for whom. */
const SETUP_MARK = "medusa_saved_card_setup"
const CUSTOMER = "medusa_customer_id"
export const CARD_RETURN_KINDS = ["success", "failure", "notification"] as const
export type CardReturnKind = (typeof CARD_RETURN_KINDS)[number]

/** The plugin's saved-card return of one registration. */
export function cardReturnUrl(backendUrl: string, providerId: string, kind: CardReturnKind): string {
  return `${backendUrl.replace(/\/+$/, "")}/altapay/saved-card-return/${encodeURIComponent(providerId)}/${kind}`
}

/** Starts AltaPay's page where the signed-in customer adds a card; answers where to send them. */
export async function startCardSetup(scope: MedusaContainer, customerId: string, input: { providerId?: string; currency: string }): Promise<{ redirectUrl: string }> {
  const registration = altapayFromConfig(scope, input.providerId)
  const { options } = registration
  if (!options.savedCards.enabled) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Saved cards are off for pp_altapay_${options.providerId}.`)
  if (!registeredSavedCardsModule(scope)) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This store has no saved-cards module (the plugin's modules are not loaded).")
  const currency = currencyInfo(input.currency)
  const terminal = terminalFor(options, currency.alpha)
  if (!terminal) throw new MedusaError(MedusaError.Types.INVALID_DATA, `No AltaPay terminal is configured for ${currency.alpha}.`)
  const logger = scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const provider = `pp_altapay_${options.providerId}`
  try {
    const request = await registration.client.agreements.setupAgreement({
      terminal,
      shopOrderId: `card-${randomBytes(12).toString("hex")}`,
      // "The amount has to be positive" (setupSubscription page): one unit of the currency, verified, not charged.
      amountMinor: 10 ** currency.exponent,
      currency: currency.alpha,
      type: "verifyCard",
      agreement: { type: "unscheduled", unscheduledType: "charge" },
      callbacks: {
        success: cardReturnUrl(options.backendUrl, options.providerId, "success"),
        failure: cardReturnUrl(options.backendUrl, options.providerId, "failure"),
        notification: cardReturnUrl(options.backendUrl, options.providerId, "notification"),
      },
      transactionInfo: { [SETUP_MARK]: provider, [CUSTOMER]: customerId },
    })
    return { redirectUrl: request.url }
  } catch (error) {
    throw toMedusaError(error, "saved-card set-up", logger)
  }
}

export type CardReturnAnswer = { status: 303; location: string } | { status: number; text: string }

/** AltaPay's post (or a browser's GET) to the saved-card return: keeps the card AltaPay's record shows, then answers where the customer goes. */
export async function handleCardReturn(
  scope: MedusaContainer,
  request: { providerId: string; kind: CardReturnKind; transactionId: string | undefined }
): Promise<CardReturnAnswer> {
  let registration: ReturnType<typeof altapayFromConfig>
  try {
    registration = altapayFromConfig(scope, `pp_altapay_${request.providerId}`)
  } catch {
    return { status: 404, text: "No such AltaPay registration." }
  }
  const logger = scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const saved = await keepFromRecord(scope, registration, request.transactionId, logger).catch((error: unknown) => {
    logger.warn(`AltaPay saved-card return: the card could not be kept (${error instanceof Error ? error.message : String(error)}).`)
    return false
  })
  if (request.kind === "notification") return { status: 200, text: "OK" }
  const outcome = saved ? "saved" : "failed"
  const template = registration.options.savedCards.returnUrl
  if (!template) return { status: 200, text: saved ? "Your card was saved." : "Your card was not saved." }
  return { status: 303, location: template.replace(/\{outcome\}/g, outcome) }
}

async function keepFromRecord(scope: MedusaContainer, registration: ReturnType<typeof altapayFromConfig>, transactionId: string | undefined, logger: Logger): Promise<boolean> {
  const { options } = registration
  const savedCards = registeredSavedCardsModule(scope)
  if (!savedCards || !options.savedCards.enabled || !transactionId || !/^[0-9a-f]{1,32}$/.test(transactionId)) return false
  // Anyone can post here: the look-up is budgeted like an anonymous customer return's.
  const anonymous = anonymousLookUps(registration, logger)
  const looked = await anonymous.budget.run(`card-${transactionId}`, () => anonymous.client.gateway.payments({ transactionId }))
  if (!looked.admitted) return false
  const setUp = looked.value.find((t) => t.transactionId === transactionId)
  const customerId = setUp && accountSetUpCustomer(setUp, `pp_altapay_${options.providerId}`)
  if (!setUp || !customerId) return false
  const kept = await keepAgreementCard(savedCards, { customerId, providerId: `pp_altapay_${options.providerId}`, setUp, fallback: { terminal: null, currency: "" } }, logger)
  return kept !== undefined
}

/** The customer a confirmed account-page set-up of this registration was started for; else undefined. */
function accountSetUpCustomer(transaction: GatewayTransaction, providerId: string): string | undefined {
  const info = (name: string) => transaction.paymentInfos.find((i) => i.name === name)?.value
  if (transaction.authType !== "verifyCard" || !statusIn(transaction.transactionStatus, ["recurring_confirmed"]) || info(SETUP_MARK) !== providerId) return undefined
  return info(CUSTOMER) || undefined
}
