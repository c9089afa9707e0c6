/** What a test drives of the sandbox's agreements (`sandbox.agreements`), without a browser. */
import type { SandboxEnv } from "../env"
import { completeChargeChallenge, submitAgreement, type CardInput } from "./agreement-page"
import type { StoredAgreement } from "./agreements"
import { settleOpenCharge } from "./charges"

export interface SandboxAgreements {
  /**
   * Submits the set-up page of a createPaymentRequest (its PaymentRequestId) as a customer would;
   * sends the callbacks. Returns the agreement id, or undefined when declined; with a card or amount
   * that asks for 3-D Secure, only `challengeUrl` (answer it with `sandbox.challenge`).
   */
  submit(paymentRequestId: string, card?: CardInput): Promise<{ agreementId?: string; transactionId?: string; status: number; location?: string; challengeUrl?: string }>
  /** Answers a charge's Result=Redirect challenge (the id is the last segment of its Url) without its callbacks; returns the charge's transaction id when authenticated. */
  completeChallenge(challengeIdOrUrl: string, outcome?: "authenticated" | "failed"): { status: number; transactionId?: string }
  /** Settles a charge answered Open (test amount 13.64): "success" reserves (or captures) it, "fail" declines it. */
  settle(transactionId: string, outcome: "success" | "fail"): void
  /** Ends an agreement: later charges on it are declined. */
  end(agreementId: string): boolean
  /** The agreement as the sandbox keeps it (card, status), or undefined. */
  get(agreementId: string): StoredAgreement | undefined
}

export function sandboxAgreements(env: SandboxEnv): SandboxAgreements {
  return {
    submit: async (paymentRequestId, card = {}) => {
      const { reply, agreement, transaction, challengeUrl } = await submitAgreement(env, paymentRequestId, card)
      return { agreementId: agreement?.id, transactionId: transaction?.transactionId, status: reply.status, location: reply.headers?.location, challengeUrl }
    },
    completeChallenge: (challengeIdOrUrl, outcome = "authenticated") => {
      const { status, transaction } = completeChargeChallenge(env, lastSegment(challengeIdOrUrl), outcome)
      return { status, transactionId: transaction?.transactionId }
    },
    settle: (transactionId, outcome) => {
      const t = settleOpenCharge(env, transactionId, outcome)
      const moved = [
        { type: t.capturedMinor > 0 ? ("capture" as const) : ("authorize" as const), transactionId, amountMinor: t.reservedMinor, currency: t.currency.alpha, result: "Success" },
      ]
      env.ledger.simulated(env.now(), `/sandbox/settle/${transactionId}`, "charge.settle", { transactionId, outcome }, outcome === "success" ? moved : [])
    },
    end: (agreementId) => env.store.agreements.end(agreementId),
    get: (agreementId) => structuredClone(env.store.agreements.agreements.get(agreementId)),
  }
}

/** A challenge's id from its page URL (or the id itself). */
export const lastSegment = (idOrUrl: string): string => idOrUrl.split("?")[0].split("/").filter(Boolean).at(-1) ?? ""
