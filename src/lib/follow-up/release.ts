import type { GatewayTransaction } from "../../altapay"
import { moneyDoorFor } from "../money-door/door"
import { releaseThroughDoor } from "../money-door/release"
import type { AltaPayRegistration } from "../registrations/registrations"
import type { SharedStore } from "../scale-out/shared-state"

/**
 * Releases a reservation no Medusa payment owns, through the money door. The caller has checked it
 * is not captured; AltaPay showing it captured after all refuses.
 */
export async function releaseReservation(registration: Pick<AltaPayRegistration, "client" | "scaleOut" | "options">, transaction: GatewayTransaction): Promise<void> {
  const { transactionId } = transaction
  const door = moneyDoorFor(registration.scaleOut, registration.options.headersTimeoutMs)
  await releaseThroughDoor(door, registration.client, {
    transactionId,
    amountMinor: transaction.reservedAmount?.minor ?? 0,
    currency: transaction.reservedAmount?.currency?.toUpperCase() ?? "",
    captured: () => new Error(`AltaPay shows transaction ${transactionId} captured: it is not released.`),
  })
}

/**
 * Why a reservation was released, kept until the merchant has been told (a run may stop in between):
 * while it is there, either follow-up that finds the reservation released tells the merchant.
 */
export const releaseReasonKey = (transactionId: string) => `altapay:follow-up:release-reason:${transactionId}`
export const RELEASE_REASON_TTL_SECONDS = 7 * 24 * 60 * 60

/** The merchant has been told of the release: no later run tells again. */
export async function forgetReleaseReason(store: Pick<SharedStore, "delete">, transactionId: string): Promise<void> {
  await store.delete(releaseReasonKey(transactionId)).catch(() => undefined)
}
