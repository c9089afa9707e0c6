/**
 * Every failure the client reports is an AltaPayError subclass, so callers can branch on `instanceof`
 * (or on `code`) and show `message` to a merchant. Messages never contain credentials or tokens:
 * they are built from our own text plus AltaPay's merchant-facing messages only.
 */

export type AltaPayErrorCode = "auth" | "validation" | "declined" | "gateway" | "timeout" | "network" | "bad_response" | "http" | "callback_signature"

export interface AltaPayErrorDetails {
  /** HTTP status when one was received. */
  status?: number
  /** `METHOD path` of the call, without query string (never credentials). */
  operation?: string
  /** True when the request may have reached AltaPay and had an effect (timeouts and lost answers). */
  mayHaveReachedAltaPay?: boolean
  cause?: unknown
}

export class AltaPayError extends Error {
  readonly code: AltaPayErrorCode
  readonly status?: number
  readonly operation?: string
  readonly mayHaveReachedAltaPay: boolean

  constructor(code: AltaPayErrorCode, message: string, details: AltaPayErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = new.target.name
    this.code = code
    this.status = details.status
    this.operation = details.operation
    this.mayHaveReachedAltaPay = details.mayHaveReachedAltaPay ?? false
  }
}

/** Raised on HTTP 401/403: wrong API user, missing rights, or a token refused twice. */
export class AltaPayAuthError extends AltaPayError {
  constructor(message: string, details: AltaPayErrorDetails = {}) {
    super("auth", message, details)
  }
}

export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `orderLines.2.itemId`. */
  field: string
  message: string
}

/**
 * Raised before anything is sent when an input breaks the reference's rules, and when AltaPay
 * answers 400/422. `issues` names every offending field.
 */
export class AltaPayValidationError extends AltaPayError {
  readonly issues: ValidationIssue[]
  constructor(message: string, issues: ValidationIssue[], details: AltaPayErrorDetails = {}) {
    super("validation", message, details)
    this.issues = issues
  }
}

/**
 * Raised before anything is sent when an amount cannot be written with the 2 decimals AltaPay
 * takes (a 3-decimal currency such as KWD, BHD or OMR whose last digit is not 0). AltaPay's own
 * plugins round such an amount (`round($amount, 2)`); we never change a customer's amount, so the
 * payment, capture or refund is refused instead. `issues` names every amount that does not fit.
 */
export class AltaPayAmountPrecisionError extends AltaPayValidationError {
  /** ISO 4217 alphabetic code of the amounts. */
  readonly currency: string
  constructor(currency: string, exponent: number, issues: ValidationIssue[]) {
    const step = `0.01${"0".repeat(Math.max(0, exponent - 2))}`
    super(
      `${issues.map((i) => `${i.field} ${i.message}`).join("; ")}: AltaPay takes amounts with at most 2 decimals and ${currency} has ${exponent}, ` +
        `so only multiples of ${step} ${currency} can be sent. Nothing was sent to AltaPay, and the amount is never rounded: ` +
        `price ${currency} items, shipping, tax and promotions in multiples of ${step} ${currency}, or take ${currency} payments with another provider.`,
      issues
    )
    this.currency = currency
  }
}

/**
 * Raised when AltaPay processed the request and refused it: Body Result Fail, Failed or Error.
 * `merchantMessage` is AltaPay's MerchantErrorMessage (safe to show in an admin).
 */
export class AltaPayDeclinedError extends AltaPayError {
  readonly result: string
  readonly merchantMessage?: string
  readonly cardHolderMessage?: string
  readonly response?: unknown
  constructor(message: string, fields: { result: string; merchantMessage?: string; cardHolderMessage?: string; response?: unknown }, details: AltaPayErrorDetails = {}) {
    super("declined", message, details)
    this.result = fields.result
    this.merchantMessage = fields.merchantMessage
    this.cardHolderMessage = fields.cardHolderMessage
    this.response = fields.response
  }
}

/** Raised when the gateway's Header ErrorCode is not 0: the call was rejected as a whole. */
export class AltaPayGatewayError extends AltaPayError {
  readonly errorCode: number
  readonly gatewayMessage: string
  constructor(errorCode: number, gatewayMessage: string, details: AltaPayErrorDetails = {}) {
    super("gateway", `AltaPay gateway error ${errorCode}${gatewayMessage ? `: ${gatewayMessage}` : ""}`, details)
    this.errorCode = errorCode
    this.gatewayMessage = gatewayMessage
  }
}

/**
 * Raised when no complete answer arrived in time. `mayHaveReachedAltaPay` says whether the
 * request could have been processed (a capture or refund must then be looked up, not resent).
 */
export class AltaPayTimeoutError extends AltaPayError {
  constructor(message: string, details: AltaPayErrorDetails = {}) {
    super("timeout", message, details)
  }
}

/** Raised on connection failures (refused, reset, DNS). `mayHaveReachedAltaPay` as for timeouts. */
export class AltaPayNetworkError extends AltaPayError {
  constructor(message: string, details: AltaPayErrorDetails = {}) {
    super("network", message, details)
  }
}

/**
 * Raised when AltaPay answered with something we cannot read: an HTML error page, truncated XML,
 * malformed JSON, or a body that does not match the documented shape. The request may have been
 * processed, so `mayHaveReachedAltaPay` is true for calls that change state.
 */
export class AltaPayBadResponseError extends AltaPayError {
  /** The first characters of the body, for diagnosis (never contains our credentials). */
  readonly bodySnippet?: string
  constructor(message: string, details: AltaPayErrorDetails & { bodySnippet?: string } = {}) {
    super("bad_response", message, details)
    this.bodySnippet = details.bodySnippet
  }
}

/** Raised on any other non-2xx answer (404, 409, 429, 5xx after retries). */
export class AltaPayHttpError extends AltaPayError {
  readonly bodySnippet?: string
  constructor(message: string, details: AltaPayErrorDetails & { bodySnippet?: string } = {}) {
    super("http", message, details)
    this.bodySnippet = details.bodySnippet
  }
}

/** Raised when a callback's AltaPay-Signature is missing, malformed, stale or does not match. */
export class AltaPayCallbackSignatureError extends AltaPayError {
  constructor(message: string) {
    super("callback_signature", message)
  }
}

/**
 * Raised when a callback's AltaPay-Signature matches but its `t` is outside the tolerance: AltaPay
 * sent it, but possibly long ago (a retry keeps its first `t`, or a replay). Treat it like an
 * unsigned callback: trust nothing in it and ask AltaPay; do not drop it.
 */
export class AltaPayStaleCallbackSignatureError extends AltaPayCallbackSignatureError {
  readonly ageSeconds: number
  constructor(message: string, ageSeconds: number) {
    super(message)
    this.ageSeconds = ageSeconds
  }
}

export const isAltaPayError = (e: unknown): e is AltaPayError => e instanceof AltaPayError

/** A short, whitespace-collapsed start of a body for diagnostics, with tokens and credentials redacted. */
export function snippet(body: string, max = 200): string {
  return redactSecrets(body.replace(/\s+/g, " ").trim()).slice(0, max)
}

/** Replaces JWT-looking strings and `Basic`/`Bearer` credentials, so a body quoted in an error leaks neither. */
function redactSecrets(text: string): string {
  return text.replace(/eyJ[\w-]+\.[\w-]+(?:\.[\w-]*)?/g, "[redacted token]").replace(/\b(Basic|Bearer)\s+\S+/gi, "$1 [redacted]")
}

/**
 * The one place an unsuccessful HTTP answer becomes a typed error. `stateChanging` marks calls
 * (capture, refund, session or payment creation) where a 5xx may mean AltaPay acted anyway.
 */
export function errorForHttpStatus(status: number, body: string, operation: string, stateChanging: boolean): AltaPayError {
  const detail = messageFromBody(body).replace(/[.\s]+$/, "")
  const suffix = detail ? `: ${detail}` : ""
  if (status === 401 || status === 403) {
    return new AltaPayAuthError(
      status === 401
        ? `AltaPay refused the credentials for ${operation} (401)${suffix}. Check the API user's username and password, and that the checkout/gateway URLs belong to the same environment.`
        : `AltaPay denied access to ${operation} (403)${suffix}. The token or API user lacks the rights for this resource.`,
      { status, operation }
    )
  }
  if (status === 400 || status === 422) {
    return new AltaPayValidationError(`AltaPay rejected the request ${operation} (${status})${suffix}.`, [{ field: "request", message: detail || `HTTP ${status}` }], {
      status,
      operation,
    })
  }
  const mayHaveReachedAltaPay = stateChanging && status >= 500 && status !== 503
  return new AltaPayHttpError(`AltaPay answered ${operation} with HTTP ${status}${suffix}.`, {
    status,
    operation,
    mayHaveReachedAltaPay,
    bodySnippet: snippet(body),
  })
}

/** Pulls a human message out of a JSON error body; HTML and other bodies give nothing. */
function messageFromBody(body: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>
    const message = parsed.message ?? parsed.error_description ?? parsed.error
    return typeof message === "string" ? redactSecrets(message).slice(0, 300) : ""
  } catch {
    return ""
  }
}
