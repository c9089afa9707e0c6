/**
 * A release of a reservation, through the door: for Medusa's cancel (the provider) and for a
 * reservation no Medusa payment owns (the follow-up jobs). AltaPay has no idempotency key; a
 * refusal or a lost answer is settled by AltaPay's own record: already released counts as done,
 * captured is never released.
 */
import { AltaPayDeclinedError, RELEASED_STATUSES, statusIn, type AltaPayClient, type GatewayTransaction } from "../../altapay"
import { pickTransaction } from "../medusa-mapping/status"
import { paymentLockKey } from "../scale-out/shared-state"
import type { AltaPayPaymentData } from "../payment-data/data"
import type { MoneyDoor } from "./door"
import { happenedOn, recordedIn, totalMinor, transactionSubject, type TransactionRecord } from "./transaction-record"

export interface ReleaseRequest {
  transactionId: string
  /** What is released, for the record and messages (the reservation's amount). */
  amountMinor: number
  currency: string
  /** Raised when AltaPay shows money captured: a captured payment is refunded, never released. */
  captured: () => Error
  /** The payment's data, where the caller has it: its records settle earlier attempts without asking AltaPay. */
  data?: AltaPayPaymentData
}

/** AltaPay's transaction after the release (undefined: AltaPay's answer did not include it). */
export function releaseThroughDoor(door: MoneyDoor, client: AltaPayClient, request: ReleaseRequest): Promise<GatewayTransaction | undefined> {
  const { transactionId, data } = request
  const look = async (): Promise<TransactionRecord> => ({ transaction: pickTransaction(await client.gateway.payments({ transactionId })) })
  return door.move<TransactionRecord, GatewayTransaction | undefined>({
    kind: "release",
    subject: transactionSubject(transactionId),
    lockKey: paymentLockKey(transactionId),
    attempt: { id: `release-${transactionId}`, amountMinor: request.amountMinor, currency: request.currency, key: null },
    lookFirst: false,
    recorded: (a) => recordedIn(data, a),
    look,
    happened: happenedOn,
    adopt: (_attempt, record) => record.transaction,
    prepare: () => ({
      send: async () => {
        try {
          return (await client.gateway.releaseReservation({ transactionId })).transaction
        } catch (error) {
          if (!(error instanceof AltaPayDeclinedError)) throw error
          const { transaction } = await look().catch(() => ({ transaction: undefined }))
          if (statusIn(transaction?.transactionStatus, RELEASED_STATUSES)) return transaction
          if (totalMinor(transaction, "captured") > 0) throw request.captured()
          throw error
        }
      },
    }),
  })
}
