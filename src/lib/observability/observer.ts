/**
 * The Medusa side of the client's observer hook (src/altapay/observer.ts): each call to AltaPay
 * becomes a span and counters (telemetry.ts) and, when the registration turned it on, an entry in
 * the payment's request log (request-log.ts). One observer per registration, so both name it.
 */
import type { AltaPayObserver } from "../../altapay"
import type { AltaPayOptions } from "../registrations/options"
import type { SharedStore } from "../scale-out/shared-state"
import { RequestLog } from "./request-log"
import { recordCall } from "./telemetry"

/** Medusa's id of a registration (pp_altapay_<id>): what spans, metrics and logs name it by. */
export const registrationName = (options: Pick<AltaPayOptions, "providerId">): string => `pp_altapay_${options.providerId}`

/** The registration's request log, or undefined when the merchant has not turned it on. */
export function requestLogOf(options: Pick<AltaPayOptions, "requestLog">, store: SharedStore, onError?: (error: unknown) => void): RequestLog | undefined {
  return options.requestLog.enabled ? new RequestLog(store, options.requestLog, onError) : undefined
}

export function altapayObserver(registration: string, requestLog: RequestLog | undefined): AltaPayObserver {
  return {
    onCall: (call) => {
      recordCall(call, registration)
      requestLog?.append(call)
    },
  }
}
