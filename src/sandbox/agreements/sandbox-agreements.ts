/** What a test drives of the sandbox's agreements (`sandbox.agreements`), without a browser. */
import type { SandboxEnv } from "../env"
import { completeChallenge, submitAgreement, type CardInput } from "./agreement-page"
import type { StoredAgreement } from "./agreements"

export interface SandboxAgreements {
  /** Submits the set-up page of a createPaymentRequest (its PaymentRequestId) as a customer would; sends the callbacks. Returns the agreement id, or undefined when declined. */
  submit(paymentRequestId: string, card?: CardInput): Promise<{ agreementId?: string; transactionId?: string; status: number; location?: string }>
  /** Answers a Result=Redirect's 3-D Secure challenge (the id is the last segment of its Url); returns the charge's transaction id when authenticated. */
  completeChallenge(challengeIdOrUrl: string, outcome?: "authenticated" | "failed"): { status: number; transactionId?: string }
  /** Ends an agreement: later charges on it are declined. */
  end(agreementId: string): boolean
  /** The agreement as the sandbox keeps it (card, status), or undefined. */
  get(agreementId: string): StoredAgreement | undefined
}

export function sandboxAgreements(env: SandboxEnv): SandboxAgreements {
  return {
    submit: async (paymentRequestId, card = {}) => {
      const { reply, agreement, transaction } = await submitAgreement(env, paymentRequestId, card)
      return { agreementId: agreement?.id, transactionId: transaction?.transactionId, status: reply.status, location: reply.headers?.location }
    },
    completeChallenge: (challengeIdOrUrl, outcome = "authenticated") => {
      const id = challengeIdOrUrl.split("/").filter(Boolean).at(-1) ?? ""
      const { status, transaction } = completeChallenge(env, id, outcome)
      return { status, transactionId: transaction?.transactionId }
    },
    end: (agreementId) => env.store.agreements.end(agreementId),
    get: (agreementId) => structuredClone(env.store.agreements.agreements.get(agreementId)),
  }
}
