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
import { ALTAPAY_SAVED_CARDS_MODULE } from "../../modules/altapay-saved-cards"
import type AltaPaySavedCardsService from "../../modules/altapay-saved-cards/service"
import { queryCustomerCards } from "../../lib/saved-cards/query"
import { storeSavedCard } from "../../lib/saved-cards/views"
import type { AltaPayOptions } from "../../lib/registrations/options"

/** An account holder's data: whose it is and for which registration. Nothing secret. */
export interface AltaPayHolderData extends Record<string, unknown> {
  id: string
  customer_id: string
  provider_id: string
}

interface Deps {
  options: Pick<AltaPayOptions, "providerId" | "savedCards">
  query: Pick<RemoteQueryFunction, "graph"> | undefined
  /**
   * The saved-cards module, only when the merchant lists it in the Payment module's dependencies.
   * Read when used: Medusa resolves a dependency from the app lazily, and modules load in any order.
   */
  savedCards: () => AltaPaySavedCardsService | undefined
  logger: Logger | undefined
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

  /** A card is saved by AltaPay's payment page setting up an agreement, never from data a caller hands Medusa. */
  async savePaymentMethod(_input: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "AltaPay saves a card only through its payment page (an agreement set up while the customer pays); it cannot be saved from card data."
    )
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
