import { formatMinor, unfundedCutoffText } from "../../src/admin/lib/format"

describe("amounts on the payouts pages", () => {
  it("places the decimal point by the currency's ISO 4217 exponent, as the server counts minor units", () => {
    expect(formatMinor(96660, "DKK")).toBe("966.60 DKK")
    expect(formatMinor(-5, "eur")).toBe("-0.05 EUR")
    expect(formatMinor(100, "JPY")).toBe("100 JPY")
    expect(formatMinor(1234, "KWD")).toBe("1.234 KWD")
    // Intl's tables say 0 decimals for these, ISO 4217 (and the server) 2 or 3.
    expect(formatMinor(1500, "RSD")).toBe("15.00 RSD")
    expect(formatMinor(1500, "IQD")).toBe("1.500 IQD")
  })

  it("shows what was stored when the amount or its currency is missing or unknown", () => {
    expect(formatMinor(null, "DKK")).toBe("–")
    expect(formatMinor(125, null)).toBe("125 (minor units)")
    expect(formatMinor(125, "ZZZ")).toBe("125 ZZZ (minor units)")
  })
})

describe("the unfunded cut-off on the exceptions page", () => {
  it("names one number of days when every registration agrees, and each one's when they differ", () => {
    expect(unfundedCutoffText(14)).toBe("14 days")
    expect(unfundedCutoffText({ default: 14, byProvider: {} })).toBe("14 days")
    expect(unfundedCutoffText({ default: 14, byProvider: { pp_altapay_card: 1, pp_altapay_mobilepay: 1 } })).toBe("1 day")
    expect(unfundedCutoffText({ default: 14, byProvider: { pp_altapay_card: 14, pp_altapay_mobilepay: 30 } })).toBe("14 days (pp_altapay_card), 30 days (pp_altapay_mobilepay)")
  })
})
