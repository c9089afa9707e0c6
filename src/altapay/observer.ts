/**
 * The client's one hook for whoever watches it (traces, metrics, a request log): after every call
 * to AltaPay the observer gets an `AltaPayCall`. The call is built here from an allow-list of
 * fields: the operation, timings, the HTTP status, AltaPay's result, messages and error code, the
 * reconciliation identifier and the ids the call was about. Headers, bodies, credentials, tokens,
 * card and customer fields are never copied into it, so no observer can pass on what it never got.
 * An observer that throws is ignored: watching never changes a call's outcome.
 */
import { AltaPayDeclinedError, AltaPayError, AltaPayGatewayError, type AltaPayErrorCode } from "./errors"
import type { GatewayResponse } from "./gateway-types"
import { isFailedResult, isOpenResult, resultOf } from "./gateway-results"

/**
 * success / open: AltaPay answered and did it (open: not final yet). declined: AltaPay answered
 * and refused (Result Fail, Failed, Error...). lost: the request may have reached AltaPay and no
 * usable answer came back (a look-up must settle it). not_sent: AltaPay surely got nothing.
 * error: any other failure (credentials, HTTP 4xx, an answer we cannot read on a read).
 */
export type AltaPayCallOutcome = "success" | "open" | "declined" | "lost" | "not_sent" | "error"

/** The AltaPay ids a call was about, from its own parameters (never from free text). */
export interface AltaPayCallSubjects {
  sessionId?: string
  paymentId?: string
  transactionId?: string
  shopOrderId?: string
  agreementId?: string
}

export interface AltaPayCall {
  /** `METHOD path template`, e.g. `POST /merchant/API/captureReservation`. */
  operation: string
  startedAt: Date
  durationMs: number
  /** Sends after the first: retries of a safe call, and the one re-send after a refused MERCHANT token. */
  retries: number
  /** The last HTTP status received; absent when no answer came. */
  status?: number
  outcome: AltaPayCallOutcome
  /** AltaPay's Result (gateway calls). */
  result?: string
  /** AltaPay's MerchantErrorMessage, or the gateway's Header ErrorMessage. Free text AltaPay wrote. */
  merchantMessage?: string
  /** AltaPay's CardHolderErrorMessage. Free text AltaPay wrote. */
  cardHolderMessage?: string
  /** The client's error code when the call failed (`declined`, `timeout`, `http`...). */
  errorCode?: AltaPayErrorCode
  /** The gateway's Header ErrorCode when it was not 0. */
  gatewayErrorCode?: number
  reconciliationIdentifier?: string
  subjects: AltaPayCallSubjects
}

export interface AltaPayObserver {
  onCall(call: AltaPayCall): void
}

/** What the transport notes while a call runs (several sends may make one call). */
export interface CallTally {
  retries: number
  status?: number
}

/** What the caller knows of a call before it is sent. */
export interface CallStart {
  operation: string
  subjects?: AltaPayCallSubjects
  reconciliationIdentifier?: string
}

type Answer = Pick<AltaPayCall, "outcome" | "result" | "merchantMessage" | "cardHolderMessage"> & { subjects?: AltaPayCallSubjects }

/**
 * Runs one call and tells the observer how it went. `answer` reads the outcome from a value
 * returned; a thrown error is read by `outcomeOfError`.
 */
export async function observeCall<T>(observer: AltaPayObserver | undefined, start: CallStart, run: (tally: CallTally) => Promise<T>, answer: (value: T) => Answer): Promise<T> {
  if (!observer) return run({ retries: 0 })
  const startedAt = new Date()
  const tally: CallTally = { retries: 0 }
  const report = (fields: Answer & Pick<AltaPayCall, "errorCode" | "gatewayErrorCode">) => {
    const { subjects, ...rest } = fields
    const call: AltaPayCall = {
      operation: start.operation,
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
      retries: tally.retries,
      ...(tally.status === undefined ? {} : { status: tally.status }),
      ...definedOnly(rest),
      ...(start.reconciliationIdentifier === undefined ? {} : { reconciliationIdentifier: start.reconciliationIdentifier }),
      subjects: definedOnly({ ...start.subjects, ...subjects }),
    }
    try {
      observer.onCall(call)
    } catch {
      // An observer's failure is its own: the payment goes on.
    }
  }
  let value: T
  try {
    value = await run(tally)
  } catch (error) {
    report(outcomeOfError(error))
    throw error
  }
  report(answer(value))
  return value
}

/** A gateway answer's outcome: its Result (Success when a read has none), AltaPay's messages. */
export function gatewayAnswer(response: GatewayResponse): Answer {
  const result = resultOf(response)
  const outcome = isFailedResult(result) ? "declined" : isOpenResult(result) ? "open" : "success"
  return {
    outcome,
    result,
    merchantMessage: response.merchantErrorMessage || undefined,
    cardHolderMessage: response.cardHolderErrorMessage || undefined,
  }
}

/** A failed call: lost when AltaPay may have acted, not_sent when it surely got nothing. */
export function outcomeOfError(error: unknown): Answer & Pick<AltaPayCall, "errorCode" | "gatewayErrorCode"> {
  if (!(error instanceof AltaPayError)) return { outcome: "error" }
  const base = { errorCode: error.code }
  if (error instanceof AltaPayDeclinedError) {
    return { ...base, outcome: "declined", result: error.result, merchantMessage: error.merchantMessage, cardHolderMessage: error.cardHolderMessage }
  }
  if (error instanceof AltaPayGatewayError) return { ...base, outcome: "error", gatewayErrorCode: error.errorCode, merchantMessage: error.gatewayMessage || undefined }
  if (error.mayHaveReachedAltaPay) return { ...base, outcome: "lost" }
  if (error.code === "timeout" || error.code === "network") return { ...base, outcome: "not_sent" }
  return { ...base, outcome: "error" }
}

function definedOnly<T extends object>(value: T): T {
  const out: Record<string, unknown> = {}
  for (const key in value) if (value[key] !== undefined && value[key] !== "") out[key] = value[key]
  return out as T
}
