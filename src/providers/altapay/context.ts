/**
 * What every hook of the provider works with: the parsed options, the shared AltaPay client, the
 * keys that seal payment data, the payment journal and locks, and the small steps the hooks share
 * (seal, look up at AltaPay, open trusted data, run one change of a payment under its lock).
 * service.ts builds one per provider instance and maps each Medusa hook onto these and the
 * hook helpers beside it (checkout-session.ts, authorization.ts, capture.ts, release.ts,
 * webhook.ts, refund-flow.ts).
 */
import type { InitiatePaymentInput, Logger, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { minorToDecimal, type AltaPayClient, type GatewayTransaction } from "../../altapay"
import { payableMinorUnits } from "../../lib/medusa-mapping/amounts"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import { cartLanguageHints, paymentPageLanguage } from "../../lib/medusa-mapping/language"
import { pickTransaction, transactionForOrder as forOrder } from "../../lib/medusa-mapping/status"
import { requireTransactionId, sealPaymentData, untrustedDataError, type AltaPayPaymentData, type SealedPaymentData } from "../../lib/payment-data/data"
import { PaymentJournal } from "../../lib/payment-data/journal"
import { trustedPaymentData } from "../../lib/payment-data/trusted"
import { notificationUrl, type AltaPayOptions } from "../../lib/registrations/options"
import { serverKeys, type ServerKeys } from "../../lib/registrations/server-keys"
import { sharedAltaPayClient } from "../../lib/registrations/shared-client"
import { paymentLockKey, processStore, scaleOutFrom, type ScaleOut, type SharedStore } from "../../lib/scale-out/shared-state"
import { StrandedSessions } from "../../lib/follow-up/stranded"
import { moneyDoorFor, type MoneyDoor } from "../../lib/money-door/door"
import { RefundFlow } from "./refund-flow"
import { returnUrlsFor, verifyOrderUrlFor } from "./return-urls"
import { SessionLines } from "./session-lines"

export type Cradle = Record<string, unknown> & { logger?: Logger }

export class ProviderContext {
  readonly logger: Logger | undefined
  readonly client: AltaPayClient
  readonly query: Pick<RemoteQueryFunction, "graph"> | undefined
  readonly scaleOut: ScaleOut
  /** Medusa's cache module when the Payment module has one, else this process's store. */
  readonly store: SharedStore
  readonly sessionLines: SessionLines
  readonly refunds: RefundFlow
  /** Every capture, refund, release and saved-card charge goes through it (lib/money-door/door.ts). */
  readonly door: MoneyDoor
  readonly sealKeys: ServerKeys
  readonly arrivalKeys: ServerKeys
  /** Sessions Medusa no longer has whose payment the follow-up job decides on (lib/follow-up/stranded.ts). */
  readonly stranded: StrandedSessions
  private readonly journal: PaymentJournal

  constructor(
    cradle: Cradle,
    readonly options: AltaPayOptions
  ) {
    this.logger = optionalDependency<Logger>(cradle, ContainerRegistrationKeys.LOGGER)
    this.query = optionalDependency<Pick<RemoteQueryFunction, "graph">>(cradle, ContainerRegistrationKeys.QUERY)
    this.sessionLines = new SessionLines(this.query, this.logger, { productUrlTemplate: options.productUrlTemplate })
    this.scaleOut = scaleOutFrom((name) => optionalDependency(cradle, name))
    this.sealKeys = serverKeys(options, "payment-data-seal")
    this.arrivalKeys = serverKeys(options, "webhook-arrival")
    this.store = this.scaleOut.store ?? processStore()
    this.stranded = new StrandedSessions(this.store, this.scaleOut.paymentLock, options.providerId)
    this.journal = new PaymentJournal(this.sealKeys, this.store, (m) => this.logger?.warn(m))
    this.client = sharedAltaPayClient(options, { debug: (m) => this.logger?.debug(m), warn: (m) => this.logger?.warn(m) }, this.scaleOut)
    this.door = moneyDoorFor(this.scaleOut, options.headersTimeoutMs, this.logger)
    this.refunds = new RefundFlow(this.client, options, this.logger, (transactionId, action) => this.lookupOne(transactionId, action), this.door, this.query)
  }

  seal(data: AltaPayPaymentData): SealedPaymentData {
    return sealPaymentData(data, this.sealKeys)
  }

  /**
   * One capture, refund or release of a payment at a time, in every configuration (see
   * lib/scale-out/shared-state.ts), starting from the newest copy of its data: Medusa read `data` before waiting
   * for the lock, and the previous holder's answer may not be stored yet. The answer is sealed,
   * one revision newer, and kept for the next holder.
   */
  serialized(transactionId: string, data: AltaPayPaymentData, job: (latest: AltaPayPaymentData) => Promise<AltaPayPaymentData>): Promise<SealedPaymentData> {
    return this.scaleOut.paymentLock(paymentLockKey(transactionId), async () => {
      const latest = await this.journal.newest(transactionId, data)
      const sealed = this.seal({ ...(await job(latest)), revision: latest.revision + 1 })
      await this.journal.write(transactionId, sealed)
      return sealed
    })
  }

  /** A Payment's data to act on (lib/payment-data/trusted.ts); undefined: unproven, and nothing at AltaPay to ask about. */
  paymentData(raw: Record<string, unknown> | undefined, hook: string): Promise<AltaPayPaymentData | undefined> {
    return trustedPaymentData(raw, hook, { keys: this.sealKeys, lookupTransaction: (id) => this.lookupOne(id, `${hook} check`), logger: this.logger })
  }

  async paidPaymentData(raw: Record<string, unknown> | undefined, hook: string): Promise<{ data: AltaPayPaymentData; transactionId: string }> {
    const data = await this.paymentData(raw, hook)
    if (!data) throw untrustedDataError(hook, "the data was not written by the AltaPay provider and names no AltaPay transaction")
    return { data, transactionId: requireTransactionId(data, hook) }
  }

  /** The session's configuration; its payment page in `language` (pageLanguage), else the registration's. */
  sessionConfiguration(autoCapture: boolean, language?: string) {
    return { autoCapture, language: language ?? this.options.language, ...(this.options.country ? { country: this.options.country } : {}) }
  }

  /** The payment page's language for a payment session: its cart's where AltaPay has it (lib/medusa-mapping/language.ts). */
  async pageLanguage(paymentSessionId: string): Promise<string> {
    return paymentPageLanguage(await cartLanguageHints(this.query, paymentSessionId), this.options.language)
  }

  /** The same for every session: the notification URL, the plugin's return endpoints and (option verifyOrder) its verify endpoint. */
  callbackUrls() {
    const verifyOrder = verifyOrderUrlFor(this.options)
    return { notification: notificationUrl(this.options), ...returnUrlsFor(this.options), ...(verifyOrder ? { verifyOrder } : {}) }
  }

  /** A session's amount in minor units: a 400 for one AltaPay cannot take (nothing, or past 15 digits). */
  minor(amount: InitiatePaymentInput["amount"], currency: string, action: string): number {
    let minor: number
    try {
      minor = payableMinorUnits(amount, currency, `AltaPay ${action}: the payment session`)
    } catch (error) {
      throw toMedusaError(error, action, this.logger)
    }
    if (minor <= 0) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `AltaPay ${action}: the payment session is for ${minorToDecimal(minor, currency)} ${currency.toUpperCase()}, so there is nothing to pay with AltaPay. Complete a free cart without a payment provider (or with Medusa's system provider). Nothing was sent to AltaPay.`
      )
    }
    return minor
  }

  lookup(filter: { shopOrderId?: string; transactionId?: string }, action: string): Promise<GatewayTransaction[]> {
    return this.client.gateway.payments(filter).catch((error: unknown) => {
      throw toMedusaError(error, action, this.logger)
    })
  }

  async lookupOne(transactionId: string, action: string): Promise<GatewayTransaction | undefined> {
    return pickTransaction(await this.lookup({ transactionId }, action))
  }

  async liveTransaction(data: AltaPayPaymentData): Promise<GatewayTransaction | undefined> {
    return data.transaction_id ? this.lookupOne(data.transaction_id, "status read") : forOrder(data.order_id, await this.lookup({ shopOrderId: data.order_id }, "status read"))
  }
}

/** A module dependency that may not be registered (awilix throws on unknown names): undefined then. */
export function optionalDependency<T>(cradle: Cradle, name: string): T | undefined {
  try {
    return cradle[name] as T | undefined
  } catch {
    return undefined
  }
}
