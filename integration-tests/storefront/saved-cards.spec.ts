/**
 * Saved cards in one Medusa app (issue 32), with `savedCards` on: two customers' cards seeded
 * through the plugin's module, then the store routes as each customer, the admin routes, and a
 * signed-in customer's payment session through Medusa's own store route, which now creates an
 * AltaPay account holder instead of logging that the provider "does not support creating account
 * holders". Store answers carry only the listed fields.
 */
import type { IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ALTAPAY_SAVED_CARDS_MODULE } from "../../src/modules/altapay-saved-cards"
import type AltaPaySavedCardsService from "../../src/modules/altapay-saved-cards/service"
import type { SavedCardInput } from "../../src/modules/altapay-saved-cards/types"
import { PROVIDER_ID } from "../../tools/test-store/altapay-sandbox"
import { createAdminUser, createCart, createCustomer, seedStore, storeHeaders, type Api, type SeededStore } from "../../tools/test-store/store"
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"

jest.setTimeout(180_000)

useAltaPayStore({ savedCards: { enabled: true } })
const anyStatus = { validateStatus: () => true }
const STORE_FIELDS = ["expiry", "id", "masked_pan", "provider_id", "scheme"]

function cardFor(customerId: string, n: number): SavedCardInput {
  return {
    customer_id: customerId,
    provider_id: PROVIDER_ID,
    agreement_id: `agreement-${customerId}-${n}`,
    masked_pan: `411111******${1110 + n}`,
    expiry_month: n,
    expiry_year: 2030,
    scheme: "Visa",
    terminal: "AltaPay Sandbox Test Terminal",
    currency: "DKK",
  }
}

medusaIntegrationTestRunner({
  cwd: STORE_APP_DIR,
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let seed: SeededStore
    let admin: { headers: Record<string, string> }
    let karen: { id: string; email: string; token: string }
    let mallory: { id: string; email: string; token: string }
    const savedCards = (container: MedusaContainer = getContainer()) => container.resolve<AltaPaySavedCardsService>(ALTAPAY_SAVED_CARDS_MODULE)
    const asCustomer = (customer: { token: string }) => ({ headers: storeHeaders(seed, customer.token), ...anyStatus })
    const asAdmin = () => ({ headers: admin.headers, ...anyStatus })

    beforeEach(async () => {
      seed = await seedStore(getContainer())
      admin = await createAdminUser(api, getContainer(), `admin-${Date.now()}@shop.example`)
      karen = await createCustomer(api, seed)
      mallory = await createCustomer(api, seed)
      await savedCards().createAltapaySavedCards([cardFor(karen.id, 1), cardFor(karen.id, 2), cardFor(mallory.id, 3)])
    })

    const idsOf = (cards: Array<{ id: string }>) => cards.map((c) => c.id).sort()
    const storedIds = async (customerId: string) => idsOf(await savedCards().listCustomerCards(customerId))

    it("lists a customer's own cards only, with nothing but the listed fields", async () => {
      const mine = await api.get("/store/altapay/saved-cards", asCustomer(karen))
      expect(mine.status).toBe(200)
      expect(idsOf(mine.data.saved_cards)).toEqual(await storedIds(karen.id))
      expect(mine.data.saved_cards).toHaveLength(2)
      for (const card of mine.data.saved_cards) {
        expect(Object.keys(card).sort()).toEqual(STORE_FIELDS)
        expect(card).toMatchObject({
          provider_id: PROVIDER_ID,
          masked_pan: expect.stringMatching(/^\d{6}\*{6}\d{4}$/),
          expiry: { month: expect.any(Number), year: 2030 },
          scheme: "Visa",
        })
      }
      expect(Object.keys(mine.data)).toEqual(["saved_cards"])
      expect(JSON.stringify(mine.data)).not.toMatch(/agreement-|Terminal|cus_/)

      const theirs = await api.get("/store/altapay/saved-cards", asCustomer(mallory))
      expect(idsOf(theirs.data.saved_cards)).toEqual(await storedIds(mallory.id))
      expect(theirs.data.saved_cards).toHaveLength(1)
    })

    it("answers 401 without a signed-in customer", async () => {
      const [karenCard] = await storedIds(karen.id)
      const list = await api.get("/store/altapay/saved-cards", { headers: storeHeaders(seed), ...anyStatus })
      const remove = await api.delete(`/store/altapay/saved-cards/${karenCard}`, { headers: storeHeaders(seed), ...anyStatus })
      expect([list.status, remove.status]).toEqual([401, 401])
      expect(await storedIds(karen.id)).toContain(karenCard)
    })

    it("answers 404 to deleting another customer's card, and leaves it; deletes one's own", async () => {
      const [karenCard, karenOther] = await storedIds(karen.id)
      const stolen = await api.delete(`/store/altapay/saved-cards/${karenCard}`, asCustomer(mallory))
      expect(stolen.status).toBe(404)
      const unknown = await api.delete("/store/altapay/saved-cards/apcard_nope", asCustomer(mallory))
      expect(unknown.status).toBe(404)
      // The same answer as for an id that does not exist: nothing tells the card is there.
      expect({ ...stolen.data, message: stolen.data.message.replace(karenCard, "apcard_nope") }).toEqual(unknown.data)
      expect(await storedIds(karen.id)).toEqual([karenCard, karenOther].sort())

      const own = await api.delete(`/store/altapay/saved-cards/${karenCard}`, asCustomer(karen))
      expect(own.status).toBe(200)
      expect(own.data).toEqual({ id: karenCard, object: "altapay_saved_card", deleted: true })
      expect(await storedIds(karen.id)).toEqual([karenOther])
      expect(await storedIds(mallory.id)).toHaveLength(1)
    })

    it("lets the admin list a customer's cards and delete one", async () => {
      const unauthenticated = await api.get(`/admin/altapay/customers/${karen.id}/saved-cards`, anyStatus)
      expect(unauthenticated.status).toBe(401)
      const listed = await api.get(`/admin/altapay/customers/${karen.id}/saved-cards`, asAdmin())
      expect(listed.status).toBe(200)
      expect(idsOf(listed.data.saved_cards)).toEqual(await storedIds(karen.id))
      expect(listed.data.saved_cards[0]).toMatchObject({ terminal: "AltaPay Sandbox Test Terminal", currency: "DKK", created_at: expect.any(String) })
      expect(JSON.stringify(listed.data)).not.toMatch(/agreement-/)

      const [first, second] = await storedIds(karen.id)
      const removed = await api.delete(`/admin/altapay/saved-cards/${first}`, asAdmin())
      expect(removed.status).toBe(200)
      expect(await storedIds(karen.id)).toEqual([second])
      expect((await api.delete(`/admin/altapay/saved-cards/${first}`, asAdmin())).status).toBe(404)
    })

    it("gives a signed-in customer's payment session an AltaPay account holder, with no warning logged", async () => {
      const logger = getContainer().resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      const warn = jest.spyOn(logger, "warn")
      try {
        const headers = storeHeaders(seed, karen.token)
        const cart = await createCart(api, seed, { customerToken: karen.token, email: karen.email })
        const { data: created } = await api.post("/store/payment-collections", { cart_id: cart.id }, { headers })
        const session = await api.post(`/store/payment-collections/${created.payment_collection.id}/payment-sessions`, { provider_id: PROVIDER_ID }, { headers, ...anyStatus })
        expect(session.status).toBe(200)
        expect(JSON.stringify(session.data)).not.toMatch(/agreement-/)

        const warnings = warn.mock.calls.map((args) => String(args[0]))
        expect(warnings.filter((w) => /account holder/i.test(w))).toEqual([])

        // Medusa stored the holder and linked it to the customer; its data is ours and secret-free.
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data: customers } = await query.graph({ entity: "customer", fields: ["id", "account_holders.*"], filters: { id: karen.id } })
        const holders = (customers[0].account_holders ?? []) as Array<{ provider_id: string; external_id: string; data: Record<string, unknown> }>
        const holder = holders.find((h) => h.provider_id === PROVIDER_ID)
        expect(holder).toMatchObject({ external_id: `${PROVIDER_ID}:${karen.id}`, data: { id: `${PROVIDER_ID}:${karen.id}`, customer_id: karen.id, provider_id: PROVIDER_ID } })
        expect(Object.keys(holder!.data).sort()).toEqual(["customer_id", "id", "provider_id"])

        // Medusa's Payment module lists the holder's saved cards through the provider (query).
        const payment = getContainer().resolve<IPaymentModuleService>(Modules.PAYMENT)
        const methods = await payment.listPaymentMethods({ provider_id: PROVIDER_ID, context: { account_holder: holder as never } })
        expect(idsOf(methods)).toEqual(await storedIds(karen.id))
        expect(JSON.stringify(methods)).not.toMatch(/agreement-|Terminal/)

        // Medusa's deletePaymentMethods through the provider: the holder's own card only.
        const [own] = await storedIds(karen.id)
        const [theirs] = await storedIds(mallory.id)
        const context = { account_holder: holder as never }
        await expect(payment.deletePaymentMethods({ provider_id: PROVIDER_ID, id: theirs, context })).rejects.toThrow(/not found/)
        await payment.deletePaymentMethods({ provider_id: PROVIDER_ID, id: own, context })
        expect(await storedIds(karen.id)).not.toContain(own)
        expect(await storedIds(mallory.id)).toEqual([theirs])

        // The spy does see the Payment module's warnings: Medusa's system provider has no listPaymentMethods.
        await payment.listPaymentMethods({ provider_id: "pp_system_default", context: {} })
        expect(warn.mock.calls.map((args) => String(args[0]))).toContainEqual(expect.stringContaining("pp_system_default does not support listing payment methods"))
      } finally {
        warn.mockRestore()
      }
    })
  },
})
