/**
 * Medusa's account-holder and payment-method hooks (Medusa 2.5+) on AltaPay, behind the
 * registration's `savedCards.enabled` option.
 *
 * AltaPay has no customer object: what it keeps is an agreement per saved card. So the account
 * holder is ours: its id is derived from the registration and the Medusa customer id, its data
 * names the two and nothing secret, and no hook calls AltaPay. The customer's cards are rows of the
 * plugin's altapay-saved-cards module; the provider reads them through `query` (the Payment
 * module's QUERY dependency, which the provider already uses for carts): a module provider's
 * container holds no other module unless the merchant lists it there.
 *
 * With the option off, createAccountHolder answers nothing, which Medusa takes as "no holder"
 * without the warning it logs for a provider lacking the hook, and no cards are listed.
 *
 * savePaymentMethod answers as Medusa's Stripe provider does (a SetupIntent the customer completes):
 * AltaPay's page where the customer adds the card, the same set-up as POST /store/altapay/saved-cards
 * (lib/saved-cards/setup-request.ts); the card is kept when AltaPay confirms it, at the plugin's
 * saved-card return. A card is never saved from card data handed to Medusa.
 */
import type {
  CreateAccountHolderInput,
  CreateAccountHolderOutput,
  DeleteAccountHolderInput,
  DeleteAccountHolderOutput,
  DeletePaymentMethodInput,
  DeletePaymentMethodOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  Logger,
  RemoteQueryFunction,
  RetrieveAccountHolderInput,
  RetrieveAccountHolderOutput,
  SavePaymentMethodInput,
  SavePaymentMethodOutput,
  UpdateAccountHolderInput,
  UpdateAccountHolderOutput,
} from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import type { AltaPayClient } from "../../altapay"
import { ALTAPAY_SAVED_CARDS_MODULE } from "../../modules/altapay-saved-cards"
import type AltaPaySavedCardsService from "../../modules/altapay-saved-cards/service"
import { queryCustomerCards } from "../../lib/saved-cards/query"
import { storeSavedCard } from "../../lib/saved-cards/views"
import type { AltaPayOptions } from "../../lib/registrations/options"
import { sharedAltaPayClient } from "../../lib/registrations/shared-client"
import { toMedusaError } from "../../lib/medusa-mapping/errors"
import { requestCardSetup } from "../../lib/saved-cards/setup-request"

/** An account holder's data: whose it is and for which registration. Nothing secret. */
export interface AltaPayHolderData extends Record<string, unknown> {
  id: string
  customer_id: string
  provider_id: string
}

/** savePaymentMethod's data: the currency of the terminal the card is for, as POST /store/altapay/saved-cards takes it; nothing else (no card data). */
const saveDataSchema = z.strictObject(
  { currency_code: z.string({ error: "is required: the currency (ISO 4217) of the payments the card is for" }).regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code such as dkk") },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `takes only currency_code, not ${issue.keys.join(", ")}: AltaPay's page takes the card itself` : "must be an object") }
)

/** What savePaymentMethod answers: where the customer goes to add the card (the payment method's id is AltaPay's PaymentRequestId). */
export interface AltaPayCardSetupData extends Record<string, unknown> {
  payment_request_id: string
  redirect_url: string
  currency_code: string
}

interface Deps {
  options: AltaPayOptions
  query: Pick<RemoteQueryFunction, "graph"> | undefined
  /**
   * The saved-cards module, only when the merchant lists it in the Payment module's dependencies.
   * Read when used: Medusa resolves a dependency from the app lazily, and modules load in any order.
   */
  savedCards: () => AltaPaySavedCardsService | undefined
  logger: Logger | undefined
  /** The provider's client; without it, the registration's shared client. */
  client?: AltaPayClient
}

export class AccountHolders {
  constructor(private readonly deps: Deps) {}

  private get providerId(): string {
    return `pp_altapay_${this.deps.options.providerId}`
  }

  private get enabled(): boolean {
    return this.deps.options.savedCards.enabled
  }

  /** The holder's id for a customer on this registration, e.g. pp_altapay_altapay:cus_01H…. */
  holderId(customerId: string): string {
    return `${this.providerId}:${customerId}`
  }

  async create({ context }: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    // Medusa stores a holder only for a non-empty answer; empty is "no holder", with no warning.
    if (!this.enabled) return {} as CreateAccountHolderOutput
    const existing = this.holderData(context.account_holder?.data)
    if (existing) return { id: existing.id, data: existing }
    const customerId = context.customer?.id
    if (!customerId) throw new MedusaError(MedusaError.Types.INVALID_DATA, "AltaPay: an account holder needs the Medusa customer.")
    const data: AltaPayHolderData = { id: this.holderId(customerId), customer_id: customerId, provider_id: this.providerId }
    return { id: data.id, data }
  }

  /** Nothing is kept at AltaPay for a holder, so there is nothing to update there. */
  async update(_input: UpdateAccountHolderInput): Promise<UpdateAccountHolderOutput> {
    return {}
  }

  /**
   * Nothing to delete at AltaPay for the holder itself. The customer's saved cards stay in the
   * saved-cards module (the customer or the admin deletes them; AltaPay's agreements are not ended).
   */
  async delete(_input: DeleteAccountHolderInput): Promise<DeleteAccountHolderOutput> {
    return {}
  }

  async retrieve({ id }: RetrieveAccountHolderInput): Promise<RetrieveAccountHolderOutput> {
    const prefix = `${this.providerId}:`
    const customerId = id?.startsWith(prefix) ? id.slice(prefix.length) : ""
    if (!this.enabled || !customerId) throw new MedusaError(MedusaError.Types.NOT_FOUND, `AltaPay account holder ${id} was not found.`)
    const data: AltaPayHolderData = { id, customer_id: customerId, provider_id: this.providerId }
    return { id, data }
  }

  /** The holder's saved cards on this registration, as the shopper may see them (no agreement id). */
  async listPaymentMethods({ context }: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    const holder = this.holderData(context?.account_holder?.data)
    if (!this.enabled || !holder) return []
    if (!this.deps.query) {
      this.deps.logger?.warn(`AltaPay: ${this.providerId} cannot list saved cards: add ContainerRegistrationKeys.QUERY to the Payment module's dependencies.`)
      return []
    }
    const cards = await queryCustomerCards(this.deps.query, { customer_id: holder.customer_id, provider_id: this.providerId })
    return cards.map((card) => ({ id: card.id, data: { ...storeSavedCard(card) } }))
  }

  /**
   * Medusa's payment-method save: AltaPay's page where the holder's customer adds a card (data
   * `{ currency_code }`). Answers the page as `data.redirect_url`; nothing is saved until AltaPay
   * confirms the card at the plugin's saved-card return, which keeps it for this customer.
   */
  async savePaymentMethod({ context, data }: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
    if (!this.enabled) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Saved cards are off for ${this.providerId} (option savedCards.enabled).`)
    const holder = this.holderData(context?.account_holder?.data)
    if (!holder) throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay: saving a card needs the customer's ${this.providerId} account holder (a signed-in customer).`)
    const parsed = saveDataSchema.safeParse(data ?? {})
    if (!parsed.success) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `AltaPay: savePaymentMethod data ${parsed.error.issues.map((i) => [i.path.join("."), i.message].filter(Boolean).join(" ")).join("; ")}.`
      )
    }
    try {
      const client = this.deps.client ?? sharedAltaPayClient(this.deps.options)
      const request = await requestCardSetup(client, this.deps.options, { customerId: holder.customer_id, currency: parsed.data.currency_code })
      const setUp: AltaPayCardSetupData = { payment_request_id: request.paymentRequestId, redirect_url: request.url, currency_code: request.currency.toLowerCase() }
      return { id: request.paymentRequestId, data: setUp }
    } catch (error) {
      throw toMedusaError(error, "saved-card set-up", this.deps.logger)
    }
  }

  /** Deletes one of the holder's cards (another customer's is "not found"). Needs the module in the Payment module's dependencies. */
  async deletePaymentMethod({ context, data }: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
    const holder = this.holderData(context?.account_holder?.data)
    if (!this.enabled || !holder) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Saved card ${data.id} was not found.`)
    const savedCards = this.deps.savedCards()
    if (!savedCards) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `AltaPay: delete saved cards through DELETE /store/altapay/saved-cards/:id, or add "${ALTAPAY_SAVED_CARDS_MODULE}" to the Payment module's dependencies.`
      )
    }
    const card = await savedCards.customerCard(holder.customer_id, data.id)
    if (!card || card.provider_id !== this.providerId) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Saved card ${data.id} was not found.`)
    await savedCards.softDeleteAltapaySavedCards([card.id])
    return {}
  }

  /** The holder data when it is this registration's holder for the customer it names; else undefined. */
  private holderData(data: Record<string, unknown> | undefined): AltaPayHolderData | undefined {
    const customerId = typeof data?.customer_id === "string" ? data.customer_id : undefined
    if (!customerId || data?.provider_id !== this.providerId || data?.id !== this.holderId(customerId)) return undefined
    return { id: this.holderId(customerId), customer_id: customerId, provider_id: this.providerId }
  }
}
