import { defaultProviderId, providerLabel } from "../../src/admin/lib/providers"

const card = { id: "pp_altapay_card", terminal: "Shop Card", terminals: null }
const mobilepay = { id: "pp_altapay_mobilepay", terminal: null, terminals: { DKK: "MobilePay DK", EUR: "MobilePay DK" } }

describe("the payment link's registration picker", () => {
  it("names each registration by its own id and its terminals", () => {
    expect(providerLabel(card)).toBe("card (Shop Card)")
    expect(providerLabel(mobilepay)).toBe("mobilepay (MobilePay DK)")
    expect(providerLabel({ id: "pp_altapay_altapay", terminal: null, terminals: null })).toBe("altapay")
  })

  it("starts with the registration of the order's newest AltaPay payment, else the first one", () => {
    expect(defaultProviderId([card, mobilepay], ["pp_altapay_card", "pp_altapay_mobilepay"])).toBe("pp_altapay_mobilepay")
    expect(defaultProviderId([card, mobilepay], ["pp_altapay_mobilepay", "pp_altapay_removed"])).toBe("pp_altapay_mobilepay")
    expect(defaultProviderId([card, mobilepay], [])).toBe("pp_altapay_card")
    expect(defaultProviderId([], ["pp_altapay_card"])).toBeUndefined()
  })
})
