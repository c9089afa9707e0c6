/**
 * Errors the storefront helper throws. All extend AltaPayCheckoutError, so one `instanceof` catches
 * everything; the subclass says what the shop should do next.
 */

export interface AltaPayCheckoutErrorDetails {
  /** HTTP status when an answer arrived. */
  status?: number
  /** Medusa's error `type` (e.g. "not_found", "unauthorized") or "altapay_unreachable". */
  type?: string
  /** Medusa's error `code`: the plugin's stable code of a customer message, e.g. "altapay_saved_card_declined" (customerMessageFor() reads it). */
  code?: string
  cause?: unknown
}

export class AltaPayCheckoutError extends Error {
  readonly status?: number
  readonly type?: string
  readonly code?: string
  constructor(message: string, details: AltaPayCheckoutErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = new.target.name
    this.status = details.status
    this.type = details.type
    if (details.code !== undefined) this.code = details.code
  }
}

/**
 * Medusa refused to start the payment: unknown cart (404), empty cart or unsupported currency
 * (400), a registered customer's cart without that customer's authentication (401/403), a
 * missing publishable key (400). `message` is Medusa's and says what to fix.
 */
export class AltaPaySessionRequestError extends AltaPayCheckoutError {}

/**
 * AltaPay could not be reached or failed (Medusa answered 502 `altapay_unreachable`, or the
 * browser's call to AltaPay failed on the network or with a 5xx). Worth retrying shortly.
 */
export class AltaPayUnavailableError extends AltaPayCheckoutError {}

/**
 * The CUSTOMER token is expired, already spent (it creates one payment), or belongs to another
 * session. Call startAltaPayCheckout() again for a fresh one.
 */
export class AltaPayTokenError extends AltaPayCheckoutError {}

/**
 * AltaPay refused the request itself: an unknown payment method, or a session that is already
 * paid (409; complete the cart instead of paying again). Also the helper's own refusal of a
 * payment method on another terminal than the session's (no `status`; no payment was created).
 */
export class AltaPayRequestError extends AltaPayCheckoutError {}
