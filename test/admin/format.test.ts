import { adminTranslator } from "../../src/admin/i18n/catalogues"
import { formatMinor, statusBadge, unfundedCutoffText } from "../../src/admin/lib/format"

const en = adminTranslator("en")

describe("amounts on the payouts pages", () => {
  it("places the decimal point by the currency's ISO 4217 exponent, as the server counts minor units", () => {
    expect(formatMinor(en, 96660, "DKK")).toBe("966.60 DKK")
    expect(formatMinor(en, -5, "eur")).toBe("-0.05 EUR")
    expect(formatMinor(en, 100, "JPY")).toBe("100 JPY")
    expect(formatMinor(en, 1234, "KWD")).toBe("1.234 KWD")
    // Intl's tables say 0 decimals for these, ISO 4217 (and the server) 2 or 3.
    expect(formatMinor(en, 1500, "RSD")).toBe("15.00 RSD")
    expect(formatMinor(en, 1500, "IQD")).toBe("1.500 IQD")
  })

  it("shows what was stored when the amount or its currency is missing or unknown", () => {
    expect(formatMinor(en, null, "DKK")).toBe("–")
    expect(formatMinor(en, 125, null)).toBe("125 (minor units)")
    expect(formatMinor(en, 125, "ZZZ")).toBe("125 ZZZ (minor units)")
    expect(formatMinor(adminTranslator("da"), 125, null)).toBe("125 (mindste enheder)")
  })
})

describe("the unfunded cut-off on the exceptions page", () => {
  it("names one number of days when every registration agrees, and each one's when they differ", () => {
    expect(unfundedCutoffText(en, 14)).toBe("14 days")
    expect(unfundedCutoffText(en, { default: 14, byProvider: {} })).toBe("14 days")
    expect(unfundedCutoffText(en, { default: 14, byProvider: { pp_altapay_card: 1, pp_altapay_mobilepay: 1 } })).toBe("1 day")
    expect(unfundedCutoffText(en, { default: 14, byProvider: { pp_altapay_card: 14, pp_altapay_mobilepay: 30 } })).toBe("14 days (pp_altapay_card), 30 days (pp_altapay_mobilepay)")
  })

  it("counts days in the admin's language", () => {
    expect(unfundedCutoffText(adminTranslator("da"), 1)).toBe("1 dag")
    expect(unfundedCutoffText(adminTranslator("fi"), { default: 14, byProvider: { pp_altapay_card: 14, pp_altapay_mobilepay: 30 } })).toBe(
      "14 päivää (pp_altapay_card), 30 päivää (pp_altapay_mobilepay)"
    )
  })
})

describe("the payment's status badge", () => {
  it("names AltaPay's status in the admin's language, and shows an unknown one as AltaPay named it", () => {
    expect(statusBadge(en, "captured")).toEqual({ color: "green", label: "Captured" })
    expect(statusBadge(adminTranslator("sv"), "preauth")).toEqual({ color: "blue", label: "Auktoriserad" })
    expect(
      statusBadge(adminTranslator("nb"), "captured", { captured: { minor: 100, decimal: "1.00", currency: "NOK" }, refunded: { minor: 50, decimal: "0.50", currency: "NOK" } })
        .label
    ).toBe("Delvis refundert")
    expect(statusBadge(adminTranslator("de"), "epayment_declined")).toEqual({ color: "red", label: "epayment_declined" })
  })
})
