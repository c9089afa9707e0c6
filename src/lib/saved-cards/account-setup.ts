/**
 * Adding a card from the customer's account page (issue 32), without a purchase: AltaPay's hosted
 * page (setup-request.ts: createPaymentRequest `verifyCard`, an unscheduled agreement). The
 * page's callbacks come to the plugin's saved-card return (src/api/altapay/saved-card-return), which
 * keeps the card only as AltaPay's own record of the set-up shows it: the customer it names in its
 * transaction_info (written here, for the signed-in customer), confirmed, a card set up by
 * `verifyCard`. Nothing the post says is taken as it stands.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { statusIn, type GatewayTransaction } from "../../altapay"
import { anonymousTransaction } from "../customer-return/confirm"
import { toMedusaError } from "../medusa-mapping/errors"
import { altapayFromConfig } from "../registrations/from-config"
import { keepAgreementCard } from "./keep-card"
import { registeredSavedCardsModule } from "./module"
import { requestCardSetup, SETUP_CUSTOMER, SETUP_MARK, type CardReturnKind } from "./setup-request"

export { CARD_RETURN_KINDS, cardReturnUrl, type CardReturnKind } from "./setup-request"

/** Starts AltaPay's page where the signed-in customer adds a card; answers where to send them. */
export async function startCardSetup(scope: MedusaContainer, customerId: string, input: { providerId?: string; currency: string }): Promise<{ redirectUrl: string }> {
  const registration = altapayFromConfig(scope, input.providerId)
  const { options } = registration
  if (!options.savedCards.enabled) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Saved cards are off for pp_altapay_${options.providerId}.`)
  if (!registeredSavedCardsModule(scope)) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This store has no saved-cards module (the plugin's modules are not loaded).")
  const logger = scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  try {
    const request = await requestCardSetup(registration.client, options, { customerId, currency: input.currency })
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
  if (!savedCards || !options.savedCards.enabled) return false
  // Anyone can post here: the look-up is budgeted like an anonymous customer return's.
  const setUp = await anonymousTransaction(registration, `card-${transactionId}`, transactionId, logger)
  const customerId = setUp && accountSetUpCustomer(setUp, `pp_altapay_${options.providerId}`)
  if (!setUp || !customerId) return false
  const kept = await keepAgreementCard(savedCards, { customerId, providerId: `pp_altapay_${options.providerId}`, setUp, fallback: { terminal: null, currency: "" } }, logger)
  return kept !== undefined
}

/** The customer a confirmed account-page set-up of this registration was started for; else undefined. */
function accountSetUpCustomer(transaction: GatewayTransaction, providerId: string): string | undefined {
  const info = (name: string) => transaction.paymentInfos.find((i) => i.name === name)?.value
  if (transaction.authType !== "verifyCard" || !statusIn(transaction.transactionStatus, ["recurring_confirmed"]) || info(SETUP_MARK) !== providerId) return undefined
  return info(SETUP_CUSTOMER) || undefined
}
