/**
 * Releases a reservation no Medusa payment owns. The gateway has no idempotency key, so a refusal
 * or a lost answer is settled by AltaPay's own record: already released counts as done.
 */
import { AltaPayDeclinedError, AltaPayError, RELEASED_STATUSES, statusIn, type AltaPayClient } from "../../altapay"
import { pickTransaction } from "../medusa-mapping/status"

export async function releaseReservation(client: AltaPayClient, transactionId: string): Promise<void> {
  try {
    await client.gateway.releaseReservation({ transactionId })
  } catch (error) {
    if (!(error instanceof AltaPayDeclinedError || (error instanceof AltaPayError && error.mayHaveReachedAltaPay))) throw error
    const transaction = pickTransaction(await client.gateway.payments({ transactionId }))
    if (!statusIn(transaction?.transactionStatus, RELEASED_STATUSES)) throw error
  }
}

/** Why a reservation was released, kept until the merchant has been told (a run may stop in between). */
export const releaseReasonKey = (transactionId: string) => `altapay:follow-up:release-reason:${transactionId}`
export const RELEASE_REASON_TTL_SECONDS = 7 * 24 * 60 * 60
