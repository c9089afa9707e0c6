/**
 * OrderDetails makes `customer` mandatory (issue 30). Medusa passes providers no guest, but the cart
 * knows the guest's e-mail and addresses by the time the session is made: on Medusa's own store
 * route the provider reads them from the cart it loads through `query`; the plugin's store route
 * hands them over in context. Only when Medusa tells nothing of the buyer is the field left out.
 */
import { AltaPayProviderService } from "../../src/providers/altapay"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { sandboxProviderOptions } from "../helpers/provider"

const USER = "customer-user"
const PASSWORD = "customer-password-42"
let sandbox: Sandbox
let counter = 0
const options = () => sandboxProviderOptions(sandbox, { username: USER, password: PASSWORD }, { maxRetries: 0 })

const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", country_code: "dk" }
const guestCart = {
  id: "cart_guest",
  currency_code: "dkk",
  total: 25,
  email: "karen@example.dk",
  billing_address: ADDRESS,
  shipping_address: { ...ADDRESS, address_1: "Rungstedlund", address_2: "Bygning 2" },
  items: [{ id: "item_1", title: "Tea", quantity: 1, unitPrice: 25, unit_price: 25, is_tax_inclusive: false, tax_lines: [], adjustments: [] }],
  shipping_methods: [],
  credit_lines: [],
}

/** Medusa's `query` for one session of the guest's cart; the cart fields the provider asked for are recorded. */
function medusaWithGuestCart(asked: string[][]) {
  return {
    query: {
      graph: async ({ entity, fields }: { entity: string; fields: string[] }) => {
        if (entity === "payment_session") return { data: [{ id: "x", payment_collection: { cart: { id: guestCart.id } } }] }
        if (entity === "cart") {
          asked.push(fields)
          return { data: [guestCart] }
        }
        return { data: [] }
      },
    },
  }
}

const sentCustomer = () =>
  (
    sandbox
      .ledger()
      .filter((e) => e.operation === "session.create")
      .at(-1)!.params as { order: { customer?: unknown } }
  ).order.customer
const newId = () => `payses_CUST${(counter++).toString(36).toUpperCase()}`

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD })
})
afterAll(() => sandbox.close())

it("a guest on Medusa's own store route: the cart's e-mail and addresses are sent as the session's customer", async () => {
  const asked: string[][] = []
  const provider = new AltaPayProviderService(medusaWithGuestCart(asked), options())
  const id = newId()
  await provider.initiatePayment({ amount: 25, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })

  expect(asked[0]).toEqual(expect.arrayContaining(["email", "billing_address.*", "shipping_address.*"]))
  expect(sentCustomer()).toEqual({
    email: "karen@example.dk",
    firstName: "Karen",
    lastName: "Blixen",
    billingAddress: { firstName: "Karen", lastName: "Blixen", street: "Strandvejen 111", city: "Rungsted", zipCode: "2960", country: "DK" },
    shippingAddress: { firstName: "Karen", lastName: "Blixen", street: "Rungstedlund, Bygning 2", city: "Rungsted", zipCode: "2960", country: "DK" },
  })
})

it("a signed-in customer's own details come first, completed by the cart's addresses", async () => {
  const provider = new AltaPayProviderService(medusaWithGuestCart([]), options())
  const id = newId()
  const customer = { id: "cus_1", email: "member@example.dk", first_name: "Isak", last_name: "Dinesen", phone: "+4512345678", billing_address: null }
  await provider.initiatePayment({ amount: 25, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id, customer } as never })
  expect(sentCustomer()).toMatchObject({
    email: "member@example.dk",
    firstName: "Isak",
    lastName: "Dinesen",
    phone: "+4512345678",
    billingAddress: { street: "Strandvejen 111" },
    shippingAddress: { street: "Rungstedlund, Bygning 2" },
  })
})

it("nothing known of the buyer (a guest, no store route, no query dependency): the field is left out", async () => {
  const provider = new AltaPayProviderService({}, options())
  const id = newId()
  await provider.initiatePayment({ amount: 25, currency_code: "dkk", data: { session_id: id }, context: { idempotency_key: id } })
  expect(sentCustomer()).toBeUndefined()
})
