import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { STORE_APP_DIR, useAltaPayStore } from "../setup/store-app/altapay-store"
import { createCart, seedStore, startSession, payWithAltaPay, waitForOrder, orderPayments, storeHeaders } from "../setup/store"

const store = useAltaPayStore()
const t0 = Date.now()
medusaIntegrationTestRunner({
  cwd: STORE_APP_DIR,
  testSuite: ({ api, getContainer }) => {
    it("e2e", async () => {
      console.log("boot", Date.now() - t0)
      let t = Date.now()
      const seed = await seedStore(getContainer(), { reducedTaxRate: 12, promotion: { code: "TEN", percent: 10 } })
      console.log("seed", Date.now() - t); t = Date.now()
      const cart = await createCart(api, seed)
      console.log("cart", Date.now() - t, cart.total, cart.items.map((i: any) => [i.unit_price, i.tax_lines.map((l: any) => l.rate), i.adjustments.map((a: any) => a.amount)]))
      t = Date.now()
      const res = await api.post(`/store/carts/${cart.id}/altapay-session`, {}, { headers: storeHeaders(seed), validateStatus: () => true })
      console.log(res.status, JSON.stringify(res.data))
      const session = await startSession(api, seed, cart.id)
      console.log("session", Date.now() - t, session)
      const lines = store.sandbox().ledger().filter((e) => e.operation === "session.create").at(-1)!.params as any
      console.log(JSON.stringify(lines.order, null, 1))
      const paid = await payWithAltaPay(session)
      console.log(paid)
      const order = await waitForOrder(getContainer(), cart.id)
      console.log("order", order, Date.now() - t)
      console.log(JSON.stringify(await orderPayments(getContainer(), order.id)))
    })
  },
})
