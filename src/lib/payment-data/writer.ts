/**
 * Reading and changing a Medusa Payment's AltaPay data outside the provider (the item-refund route
 * and workflow) the way the provider's own hooks do: only data that is provably the provider's,
 * from its newest copy, and changes under the payment's lock, sealed and one revision newer.
 */
import type { IPaymentModuleService, MedusaContainer, UpdatePaymentDTO } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import type { AltaPayClient, GatewayTransaction } from "../../altapay"
import { altapayFromConfig } from "../registrations/from-config"
import type { AltaPayOptions } from "../registrations/options"
import { sealPaymentData, type AltaPayPaymentData } from "./data"
import { PaymentJournal } from "./journal"
import { paymentLockKey, type Lock, type ScaleOut } from "../scale-out/shared-state"
import { serverKeys, type ServerKeys } from "../registrations/server-keys"
import { pickTransaction } from "../medusa-mapping/status"
import { trustedPaymentData } from "./trusted"

export interface PaymentDataAccess {
  keys: ServerKeys
  journal: PaymentJournal
  lock: Lock
  lookupTransaction: (transactionId: string) => Promise<GatewayTransaction | undefined>
}

/** Access to the data of payments made with AltaPay registration `providerId` (its keys, client and locks). */
export function paymentDataAccess(container: MedusaContainer, providerId: string): PaymentDataAccess {
  const { options, client, scaleOut } = altapayFromConfig(container, providerId)
  return dataAccessFor(options, client, scaleOut)
}

/** The access of one AltaPay registration: its seal keys, and the provider's journal and locks. */
export function dataAccessFor(options: AltaPayOptions, client: AltaPayClient, scaleOut: ScaleOut): PaymentDataAccess {
  const keys = serverKeys(options, "payment-data-seal")
  return {
    keys,
    journal: new PaymentJournal(keys, scaleOut.store),
    lock: scaleOut.paymentLock,
    lookupTransaction: async (transactionId) => pickTransaction(await client.gateway.payments({ transactionId })),
  }
}

/** The payment's data to plan with: provably the provider's, and the newest copy of it. */
export async function newestPaymentData(
  access: PaymentDataAccess,
  paymentId: string,
  raw: Record<string, unknown> | null | undefined
): Promise<AltaPayPaymentData & { transaction_id: string }> {
  const data = await trustedPaymentData(raw ?? undefined, `payment ${paymentId}`, access)
  if (!data?.transaction_id) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${paymentId} has not been paid at AltaPay yet.`)
  return (await access.journal.newest(data.transaction_id, data)) as AltaPayPaymentData & { transaction_id: string }
}

/** Runs `job` under the lock of the payment whose AltaPay transaction is `transactionId`. */
export function withPaymentLock<T>(access: PaymentDataAccess, transactionId: string, job: () => Promise<T>): Promise<T> {
  return access.lock(paymentLockKey(transactionId), job)
}

/**
 * Changes payment `paymentId`'s data under its lock. `change` gets the newest copy and returns the
 * new data, or undefined to leave it as it is. `registrationAccess` defaults to that of the payment's
 * own registration (its provider_id).
 */
export async function changePaymentData(
  container: MedusaContainer,
  paymentId: string,
  change: (latest: AltaPayPaymentData) => AltaPayPaymentData | undefined | Promise<AltaPayPaymentData | undefined>,
  registrationAccess?: PaymentDataAccess
): Promise<void> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [payment] = await payments.listPayments({ id: paymentId }, { select: ["id", "provider_id", "data"] })
  if (!payment) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment ${paymentId} was not found.`)
  // The payment's own registration: its seal keys and locks, whichever AltaPay terminal it paid on.
  const access = registrationAccess ?? paymentDataAccess(container, payment.provider_id)
  const read = async () => (await payments.listPayments({ id: paymentId }, { select: ["id", "data"] }))[0]?.data
  const { transaction_id: transactionId } = await newestPaymentData(access, paymentId, payment.data)
  await withPaymentLock(access, transactionId, async () => {
    const latest = await newestPaymentData(access, paymentId, await read())
    const changed = await change(latest)
    if (!changed) return
    const sealed = sealPaymentData({ ...changed, revision: latest.revision + 1 }, access.keys)
    // The Payment module updates `data` as a whole; its DTO type just does not list the field.
    await payments.updatePayment({ id: paymentId, data: sealed } as UpdatePaymentDTO)
    await access.journal.write(transactionId, sealed)
  })
}
