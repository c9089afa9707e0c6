/**
 * Medusa's account-holder and payment-method hooks (issue 32): a signed-in customer gets one holder
 * per registration, of our own making (AltaPay has no customer object), whose data holds nothing
 * secret; saved cards are listed for that holder only; savePaymentMethod answers AltaPay's page where
 * the customer adds the card (issue 40), never a card from data a caller hands in.
 */
import { AltaPayProviderService } from "../../src/providers/altapay"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import type { SavedCardRecord } from "../../src/modules/altapay-saved-cards/types"
import { savedCardRecord } from "../helpers/saved-cards"

const CUSTOMER = { id: "cus_karen", email: "karen@example.dk" }
const options = (savedCards?: { enabled: boolean }, providerId = "altapay") =>
  ({
    checkoutUrl: "http://127.0.0.1:9",
    gatewayUrl: "http://127.0.0.1:9",
    username: "holder-user",
    password: "holder-password-42",
    backendUrl: "http://127.0.0.1:9",
    allowInsecureUrls: true,
    providerId,
    ...(savedCards ? { savedCards } : {}),
  }) as never

const card = (overrides: Partial<SavedCardRecord> = {}) => savedCardRecord({ customer_id: CUSTOMER.id, ...overrides })

/** Medusa's `query` over a table of saved cards; records what it was asked. */
function medusaWithCards(cards: SavedCardRecord[], asked: Array<Record<string, unknown>> = []) {
  return {
    query: {
      graph: async ({ entity, filters }: { entity: string; filters: Record<string, unknown> }) => {
        asked.push({ entity, ...filters })
        if (entity !== "altapay_saved_card") return { data: [] }
        return { data: cards.filter((c) => Object.entries(filters).every(([key, value]) => (c as unknown as Record<string, unknown>)[key] === value)) }
      },
    },
  }
}

async function holderFor(provider: AltaPayProviderService, customer = CUSTOMER) {
  return provider.createAccountHolder({ context: { customer } as never })
}

describe("with savedCards off (the default)", () => {
  it("creates no account holder: Medusa stores none and logs no warning", async () => {
    const provider = new AltaPayProviderService(medusaWithCards([card()]), options())
    expect(await holderFor(provider)).toEqual({})
  })

  it("lists no cards, even for holder data that looks like ours", async () => {
    const provider = new AltaPayProviderService(medusaWithCards([card()]), options())
    const data = { id: "pp_altapay_altapay:cus_karen", customer_id: "cus_karen", provider_id: "pp_altapay_altapay" }
    expect(await provider.listPaymentMethods({ context: { account_holder: { data } as never } })).toEqual([])
  })
})

describe("with savedCards on", () => {
  it("gives a customer one holder per registration, derived from the customer id, with nothing secret in it", async () => {
    const card1 = new AltaPayProviderService({}, options({ enabled: true }))
    const mobile = new AltaPayProviderService({}, options({ enabled: true }, "mobilepay"))
    const holder = await holderFor(card1)
    expect(holder).toEqual({
      id: "pp_altapay_altapay:cus_karen",
      data: { id: "pp_altapay_altapay:cus_karen", customer_id: "cus_karen", provider_id: "pp_altapay_altapay" },
    })
    expect((await holderFor(mobile)).id).toBe("pp_altapay_mobilepay:cus_karen")
    // Medusa passes the existing holder back: the same answer.
    expect(await card1.createAccountHolder({ context: { customer: CUSTOMER, account_holder: { data: holder.data } } as never })).toEqual(holder)
  })

  it("needs the customer to create a holder", async () => {
    const provider = new AltaPayProviderService({}, options({ enabled: true }))
    await expect(provider.createAccountHolder({ context: {} as never })).rejects.toThrow(/needs the Medusa customer/)
  })

  it("retrieves its own holders by id and no one else's", async () => {
    const provider = new AltaPayProviderService({}, options({ enabled: true }))
    expect(await provider.retrieveAccountHolder({ id: "pp_altapay_altapay:cus_karen" })).toEqual((await holderFor(provider)) as never)
    await expect(provider.retrieveAccountHolder({ id: "cus_stripe_123" })).rejects.toThrow(/not found/)
    await expect(provider.retrieveAccountHolder({ id: "pp_altapay_mobilepay:cus_karen" })).rejects.toThrow(/not found/)
  })

  it("updates and deletes nothing at AltaPay (there is nothing there)", async () => {
    const provider = new AltaPayProviderService({}, options({ enabled: true }))
    const { data } = await holderFor(provider)
    expect(await provider.updateAccountHolder({ context: { account_holder: { data } } as never })).toEqual({})
    expect(await provider.deleteAccountHolder({ context: { account_holder: { data } } as never })).toEqual({})
  })

  it("lists the holder's cards on this registration only, without the agreement, terminal or currency", async () => {
    const asked: Array<Record<string, unknown>> = []
    const cards = [card(), card({ id: "apcard_other", customer_id: "cus_someone" }), card({ id: "apcard_mobile", provider_id: "pp_altapay_mobilepay" })]
    const provider = new AltaPayProviderService(medusaWithCards(cards, asked), options({ enabled: true }))
    const { data } = await holderFor(provider)
    const methods = await provider.listPaymentMethods({ context: { account_holder: { data } as never } })
    expect(methods).toEqual([
      { id: "apcard_1", data: { id: "apcard_1", provider_id: "pp_altapay_altapay", masked_pan: "411111******1111", expiry: { month: 9, year: 2030 }, scheme: "Visa" } },
    ])
    expect(asked).toEqual([{ entity: "altapay_saved_card", customer_id: "cus_karen", provider_id: "pp_altapay_altapay" }])
  })

  it("lists nothing for holder data it did not make (another registration's, or a customer id that does not match the holder id)", async () => {
    const asked: Array<Record<string, unknown>> = []
    const provider = new AltaPayProviderService(medusaWithCards([card()], asked), options({ enabled: true }))
    const forged = [
      { id: "pp_altapay_mobilepay:cus_karen", customer_id: "cus_karen", provider_id: "pp_altapay_mobilepay" },
      { id: "pp_altapay_altapay:cus_mallory", customer_id: "cus_karen", provider_id: "pp_altapay_altapay" },
      { id: "cus_stripe_123" },
    ]
    for (const data of forged) expect(await provider.listPaymentMethods({ context: { account_holder: { data } as never } })).toEqual([])
    expect(asked).toEqual([])
  })

  describe("savePaymentMethod: AltaPay's page where the customer adds the card, as Medusa's Stripe provider answers a SetupIntent", () => {
    let sandbox: Sandbox
    beforeAll(async () => {
      sandbox = await startSandbox({ port: 0, username: "holder-user", password: "holder-password-42" })
    })
    afterAll(() => sandbox.close())
    const onSandbox = (savedCards: { enabled: boolean }) =>
      new AltaPayProviderService({}, {
        ...(options(savedCards) as object),
        checkoutUrl: sandbox.checkoutUrl,
        gatewayUrl: sandbox.gatewayUrl,
        terminal: "AltaPay Sandbox Test Terminal",
        backendUrl: "https://shop.example",
      } as never)

    it("answers AltaPay's set-up page for the holder's customer: verifyCard, an unscheduled agreement, the plugin's saved-card return", async () => {
      const provider = onSandbox({ enabled: true })
      const { data } = await holderFor(provider)
      const saved = await provider.savePaymentMethod({ context: { account_holder: { data } as never }, data: { currency_code: "dkk" } })
      expect(saved).toEqual({
        id: expect.any(String),
        data: { payment_request_id: saved.id, redirect_url: `${sandbox.url}/sandbox/agreement/${saved.id}`, currency_code: "dkk" },
      })
      const sent = sandbox
        .ledger()
        .filter((e) => e.operation === "createPaymentRequest")
        .at(-1)!.params
      expect(sent).toMatchObject({
        type: "verifyCard",
        "agreement[type]": "unscheduled",
        currency: "DKK",
        terminal: "AltaPay Sandbox Test Terminal",
        "config[callback_ok]": "https://shop.example/altapay/saved-card-return/altapay/success",
        "config[callback_notification]": "https://shop.example/altapay/saved-card-return/altapay/notification",
        "transaction_info[medusa_customer_id]": CUSTOMER.id,
        "transaction_info[medusa_saved_card_setup]": "pp_altapay_altapay",
      })
    })

    it("never saves a card from data a caller hands in, nor without the customer's holder or with saved cards off", async () => {
      const provider = onSandbox({ enabled: true })
      const { data } = await holderFor(provider)
      const before = sandbox.ledger().length
      await expect(provider.savePaymentMethod({ context: { account_holder: { data } as never }, data: { currency_code: "dkk", card_number: "4111111111111111" } })).rejects.toThrow(
        /takes only currency_code, not card_number: AltaPay's page takes the card itself/
      )
      await expect(provider.savePaymentMethod({ context: { account_holder: { data } as never }, data: {} })).rejects.toThrow(/currency_code is required/)
      await expect(provider.savePaymentMethod({ context: {}, data: { currency_code: "dkk" } })).rejects.toThrow(/needs the customer's pp_altapay_altapay account holder/)
      await expect(onSandbox({ enabled: false }).savePaymentMethod({ context: { account_holder: { data } as never }, data: { currency_code: "dkk" } })).rejects.toThrow(
        /Saved cards are off/
      )
      expect(sandbox.ledger()).toHaveLength(before)
    })
  })

  describe("deletePaymentMethod", () => {
    function savedCardsModule(cards: SavedCardRecord[]) {
      const deleted: string[] = []
      return {
        deleted,
        module: {
          customerCard: async (customerId: string, id: string) => cards.find((c) => c.id === id && c.customer_id === customerId),
          softDeleteAltapaySavedCards: async (ids: string[]) => void deleted.push(...ids),
        },
      }
    }

    it("deletes the holder's own card, and answers not found for another customer's", async () => {
      const cards = savedCardsModule([card(), card({ id: "apcard_other", customer_id: "cus_someone" })])
      const provider = new AltaPayProviderService({ altapaySavedCards: cards.module }, options({ enabled: true }))
      const { data } = await holderFor(provider)
      const context = { account_holder: { data } as never }
      await expect(provider.deletePaymentMethod({ context, data: { id: "apcard_other" } })).rejects.toThrow(/not found/)
      expect(await provider.deletePaymentMethod({ context, data: { id: "apcard_1" } })).toEqual({})
      expect(cards.deleted).toEqual(["apcard_1"])
    })

    it("points to the store route when the Payment module does not list the saved-cards module", async () => {
      const provider = new AltaPayProviderService({}, options({ enabled: true }))
      const { data } = await holderFor(provider)
      await expect(provider.deletePaymentMethod({ context: { account_holder: { data } as never }, data: { id: "apcard_1" } })).rejects.toThrow(
        /DELETE \/store\/altapay\/saved-cards/
      )
    })
  })
})
