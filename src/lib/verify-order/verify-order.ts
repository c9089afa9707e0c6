/**
 * AltaPay's last look at the cart before the money moves (the verify endpoint,
 * src/api/altapay/verify-order/[provider]/route.ts). AltaPay calls the shop's verify-order URL
 * "just before the payment is processed" and goes on only on HTTP 200 with `OKAY`; any other answer
 * declines the payment and is shown to the customer (AltaPay's Payment Verify Order Page;
 * sdk-csharp PaymentRequestConfig.cs `CallbackVerifyOrderUrl`). So a cart that changed, an item out
 * of stock or a discount that ended is refused before the card is charged, not released after.
 *
 * It fails closed: only AltaPay's own post is answered `OKAY`, a post whose `AltaPay-Signature`
 * verifies with the registration's callbackSecret and is fresh (a verify is a question about now:
 * a stale one is a replay). Anything that cannot be checked (no secret, Medusa not answering) is
 * refused, with the reason in the log.
 */
import type { Logger, MedusaContainer, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { currencyInfo, decimalToMinor, verifyCallbackSignature } from "../../altapay"
import { languageOf, type Language } from "../languages/languages"
import { cartLanguageHints, paymentPageLanguage } from "../medusa-mapping/language"
import { sessionIdFromOrderId } from "../medusa-mapping/shop-order-id"
import { altapayOptionsFromConfig, type AltaPayRegistration } from "../registrations/from-config"
import { okay, refuse, type VerifyAnswer } from "./answers"
import { cartProblem, type VerifiedPost } from "./cart-check"

export interface VerifyOrderRequest {
  scope: MedusaContainer
  /** The registration id in the URL: `card` for pp_altapay_card. */
  registration: string
  rawBody?: Buffer
  signatureHeader?: string
}

export async function verifyOrder(request: VerifyOrderRequest): Promise<VerifyAnswer> {
  let registration: AltaPayRegistration
  try {
    registration = altapayOptionsFromConfig(request.scope, `pp_altapay_${request.registration}`)
  } catch {
    // Not 200: AltaPay fails the payment with an error.
    return { status: 404, text: "No such AltaPay registration." }
  }
  const scope = request.scope
  const logger = scope.hasRegistration(ContainerRegistrationKeys.LOGGER) ? scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER) : undefined
  const post = verifiedPost(request, registration)
  if (typeof post === "string") {
    logger?.warn(`AltaPay verify-order (${registration.providerId}): refused, nothing was charged: ${post}.`)
    return refuse("unverified")
  }
  try {
    const problem = await cartProblem(request.scope, registration.options, registration.providerId, post)
    if (!problem) return okay()
    logger?.warn(`AltaPay verify-order for ${post.shopOrderId} (${registration.providerId}): refused, nothing was charged: ${problem.detail}.`)
    return refuse(problem.refusal, problem.pageLanguage ? (languageOf(problem.pageLanguage) ?? "en") : await pageLanguage(scope, post, registration))
  } catch (error) {
    logger?.warn(
      `AltaPay verify-order for ${post.shopOrderId} (${registration.providerId}): the cart could not be checked (${error instanceof Error ? error.message : String(error)}); refused, nothing was charged.`
    )
    return refuse("unverified", await pageLanguage(scope, post, registration))
  }
}

/** The payment page's language (the cart's locale, else its country, else the registration's), where it is one of ours; else English. */
async function pageLanguage(scope: MedusaContainer, post: VerifiedPost, registration: AltaPayRegistration): Promise<Language> {
  const query = scope.hasRegistration(ContainerRegistrationKeys.QUERY) ? scope.resolve<Pick<RemoteQueryFunction, "graph">>(ContainerRegistrationKeys.QUERY) : undefined
  const hints = await cartLanguageHints(query, sessionIdFromOrderId(post.shopOrderId))
  return languageOf(paymentPageLanguage(hints, registration.options.language)) ?? "en"
}

/** The post's shop_orderid, amount and currency when AltaPay signed it just now; else why not. */
function verifiedPost(request: VerifyOrderRequest, registration: AltaPayRegistration): VerifiedPost | string {
  const { callbackSecret, callbackToleranceSeconds } = registration.options
  if (!callbackSecret) return "the registration has no callbackSecret, so AltaPay's post cannot be told from anyone's (set callbackSecret to AltaPay's webhook secret)"
  if (!request.rawBody) return "the post has no body"
  try {
    verifyCallbackSignature({ rawBody: request.rawBody, signatureHeader: request.signatureHeader, secret: callbackSecret, toleranceSeconds: callbackToleranceSeconds })
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  const form = new URLSearchParams(request.rawBody.toString("utf8"))
  const shopOrderId = form.get("shop_orderid") ?? ""
  if (!/^[\w-]{1,100}$/.test(shopOrderId)) return "shop_orderid is missing or malformed"
  try {
    const currency = currencyInfo(form.get("currency") ?? "").alpha
    return { shopOrderId, currency, amountMinor: decimalToMinor(form.get("amount") ?? "", currency) }
  } catch {
    return `the amount or currency of ${shopOrderId} cannot be read`
  }
}
