/**
 * The AltaPay payment provider: one method per Medusa hook, in the order a payment meets them
 * (the order of Medusa's own Stripe provider's guide). Each is a short mapping onto a named helper
 * beside this file, all working on one ProviderContext (context.ts): the framework-free client in
 * src/altapay, AltaPay failures as MedusaErrors in one place (lib/medusa-mapping/errors.ts) and
 * states mapped in one place (lib/medusa-mapping/status.ts).
 *
 * What the provider acts on comes from the provider: data it sealed (lib/payment-data/data.ts), or a live
 * read at AltaPay for the Medusa payment session id Medusa itself passed. Captures, refunds and
 * releases of one payment run under the payment's lock, starting from its newest data.
 */
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  CreateAccountHolderInput,
  CreateAccountHolderOutput,
  DeleteAccountHolderInput,
  DeleteAccountHolderOutput,
  DeletePaymentInput,
  DeletePaymentMethodInput,
  DeletePaymentMethodOutput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrieveAccountHolderInput,
  RetrieveAccountHolderOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  SavePaymentMethodInput,
  SavePaymentMethodOutput,
  UpdateAccountHolderInput,
  UpdateAccountHolderOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { AltaPayClient } from "../../altapay"
import { ALTAPAY_SAVED_CARDS_MODULE } from "../../modules/altapay-saved-cards"
import { sessionStatusFor } from "../../lib/medusa-mapping/status"
import { withTransaction } from "../../lib/payment-data/transaction-state"
import { parseAltaPayOptions, type AltaPayOptions, type RegistrationOf } from "../../lib/registrations/options"
import { notedRegistration } from "../../lib/registrations/registration-id"
import { AccountHolders } from "./account-holders"
import { authorizeSession } from "./authorization"
import { captureReservation, withoutLostCaptures } from "./capture"
import { initiateSession, retireSession, updateSession } from "./checkout-session"
import { ProviderContext, optionalDependency, type Cradle } from "./context"
import { refuseHeldCapture } from "./fraud-hold"
import { IdempotencyCache } from "./idempotency"
import { refundAmount } from "./refund-amount"
import { keepForOrderEdit } from "./order-edit"
import { releaseReservation } from "./release"
import { webhookAction } from "./webhook"

export class AltaPayProviderService extends AbstractPaymentProvider<AltaPayOptions> {
  static override identifier = "altapay"

  static override validateOptions(options: Record<string, unknown>): void {
    AltaPayProviderService.parseOptions(options)
  }

  /**
   * The options as this provider works with them, or the refusal listing every problem. With the
   * registration (its medusa-config entry, which the loader notes: registration-id.ts),
   * `providerId` is the entry's id and a providerId option that differs from it is refused.
   */
  static parseOptions(options: Record<string, unknown>, registration: RegistrationOf | undefined = notedRegistration(options)): AltaPayOptions {
    const parsed = parseAltaPayOptions(options, registration)
    if ("problems" in parsed) {
      throw new MedusaError(
        MedusaError.Types.INVALID_ARGUMENT,
        `AltaPay provider options are invalid:\n- ${parsed.problems.join("\n- ")}\nFix them in the Payment module's providers entry of medusa-config.`
      )
    }
    return parsed.options
  }

  protected readonly options_: AltaPayOptions
  protected readonly logger_: Logger | undefined
  protected readonly client: AltaPayClient
  private readonly ctx: ProviderContext
  private readonly holders: AccountHolders
  private readonly initiated = new IdempotencyCache<Promise<InitiatePaymentOutput>>()

  constructor(cradle: Cradle, options: AltaPayOptions) {
    super(cradle, options)
    this.options_ = AltaPayProviderService.parseOptions(options as unknown as Record<string, unknown>)
    this.ctx = new ProviderContext(cradle, this.options_)
    this.logger_ = this.ctx.logger
    this.client = this.ctx.client
    this.holders = new AccountHolders({
      options: this.options_,
      client: this.client,
      query: this.ctx.query,
      savedCards: () => optionalDependency(cradle, ALTAPAY_SAVED_CARDS_MODULE),
      logger: this.logger_,
    })
  }

  // --- account holders and saved cards (option savedCards; account-holders.ts) ------------------

  /** Runs when a signed-in customer starts a payment session, before initiatePayment. */
  async createAccountHolder(input: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    return this.holders.create(input)
  }

  async updateAccountHolder(input: UpdateAccountHolderInput): Promise<UpdateAccountHolderOutput> {
    return this.holders.update(input)
  }

  async deleteAccountHolder(input: DeleteAccountHolderInput): Promise<DeleteAccountHolderOutput> {
    return this.holders.delete(input)
  }

  async retrieveAccountHolder(input: RetrieveAccountHolderInput): Promise<RetrieveAccountHolderOutput> {
    return this.holders.retrieve(input)
  }

  async listPaymentMethods(input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    return this.holders.listPaymentMethods(input)
  }

  async savePaymentMethod(input: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
    return this.holders.savePaymentMethod(input)
  }

  async deletePaymentMethod(input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
    return this.holders.deletePaymentMethod(input)
  }

  // --- checkout ---------------------------------------------------------------------------

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    return initiateSession(this.ctx, this.initiated, input)
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    return updateSession(this.ctx, input)
  }

  /** Retires the AltaPay session of a session Medusa replaced (see checkout-session.ts). */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return retireSession(this.ctx, input)
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return authorizeSession(this.ctx, input)
  }

  // --- after the order ------------------------------------------------------------------

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const { data, transactionId } = await this.ctx.paidPaymentData(input.data, "capture")
    return {
      data: await this.ctx.serialized(transactionId, data, async (newest) => {
        const latest = await withoutLostCaptures(this.ctx, newest, data)
        refuseHeldCapture(latest) // read under the lock: an approval just made counts
        return (await captureReservation(this.ctx, input, latest, transactionId)).data
      }),
    }
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const { data, transactionId } = await this.ctx.paidPaymentData(input.data, "refund")
    const refundId = input.context?.idempotency_key ?? null
    return {
      data: await this.ctx.serialized(transactionId, data, async (newest) => {
        const latest = await this.ctx.refunds.withoutLost(newest, data)
        // The running total is taken from the newest data, under the lock: a concurrent refund is in it.
        const { amountMinor, medusaAmount } = refundAmount(input.amount, latest, this.ctx.logger)
        return (await this.ctx.refunds.run({ data: latest, transactionId, amountMinor, medusaAmount, refundId })).data
      }),
    }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const data = await this.ctx.paymentData(input.data, "retrieve")
    if (!data) return { data: input.data }
    return { data: this.ctx.seal(withTransaction(data, await this.ctx.liveTransaction(data))) }
  }

  /**
   * Releases a Medusa payment's reservation. Medusa also calls this, with no payment id, to undo an
   * authorization it could not record (its payment row failed, typically because another
   * authorization of the same session, a callback beside the customer's return, recorded it first):
   * that reservation is then the other payment's, or one the session follow-up will place an order
   * with, so it is never released on that call.
   */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = await this.ctx.paymentData(input.data, "cancel")
    if (!data?.transaction_id) return { data: data ? this.ctx.seal(data) : input.data } // never paid: nothing reserved at AltaPay
    const transactionId = data.transaction_id
    if (!input.context?.idempotency_key) {
      this.ctx.logger?.info(
        `AltaPay ${data.order_id}: Medusa undid an authorization it could not record; transaction ${transactionId} is not released (another authorization recorded it, or the follow-up will).`
      )
      return { data: this.ctx.seal(data) }
    }
    // Medusa cancels an authorized payment when an edit of its order is confirmed: an invoice reservation is kept (order-edit.ts).
    return {
      data: await this.ctx.serialized(transactionId, data, async (latest) => (await keepForOrderEdit(this.ctx, latest)) ?? releaseReservation(this.ctx, latest, transactionId)),
    }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const data = await this.ctx.paymentData(input.data, "status")
    if (!data) return { status: PaymentSessionStatus.PENDING, data: input.data }
    const transaction = await this.ctx.liveTransaction(data)
    return { status: sessionStatusFor(transaction, { amountMinor: data.amount_minor, currency: data.currency }).status, data: this.ctx.seal(withTransaction(data, transaction)) }
  }

  // --- callbacks ----------------------------------------------------------------------------

  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    return webhookAction(this.ctx, payload)
  }
}
