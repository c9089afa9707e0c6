import { readFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { AltaPayBadResponseError } from "../../src/altapay/errors"
import { decimalToMinor } from "../../src/altapay/money"
import { parseGatewayResponse } from "../../src/altapay/xml"

const fixture = (name: string): string => readFileSync(join(__dirname, "../fixtures/gateway", name), "utf8")

const documents = ["refund-success.xml", "payments-three-transactions.xml", "refund-open-cdata.xml", "refund-new-version-unknown-elements.xml", "payments-jpy.xml"].map(fixture)

const withAmount = (currency: string, amount: string): string =>
  `<APIResponse version="20170228"><Header><ErrorCode>0</ErrorCode><ErrorMessage/></Header><Body>` +
  `<Transactions><Transaction><TransactionId>1</TransactionId>${currency}` +
  `<CapturedAmount>${amount}</CapturedAmount></Transaction></Transactions></Body></APIResponse>`

/** How AltaPay may wrap a value: bare, padded with newlines, or in padded CDATA. */
const wrapping = fc.constantFrom(
  (text: string) => text,
  (text: string) => `\n        ${text}\n    `,
  (text: string) => `\n        <![CDATA[${text}]]>\n    `
)

/** The parser either returns or throws AltaPayBadResponseError that is not hiding a bug of ours. */
function parsesOrRejectsCleanly(text: string): void {
  try {
    parseGatewayResponse(text)
  } catch (error) {
    expect(error).toBeInstanceOf(AltaPayBadResponseError)
    const cause = (error as AltaPayBadResponseError).cause
    expect(cause instanceof TypeError || cause instanceof RangeError || cause instanceof ReferenceError).toBe(false)
  }
}

describe("amounts are read exactly", () => {
  it("a decimal with 0, 1 or 2 digits becomes the same minor units, in a 2-digit currency or an unknown one", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.stringMatching(/^\d{0,2}$/),
        fc.constantFrom(
          { element: "<MerchantCurrency>208</MerchantCurrency>", alpha: "DKK" },
          { element: "<MerchantCurrency>978</MerchantCurrency><MerchantCurrencyAlpha>EUR</MerchantCurrencyAlpha>", alpha: "EUR" },
          { element: "<MerchantCurrencyAlpha>SEK</MerchantCurrencyAlpha>", alpha: "SEK" },
          { element: "", alpha: "" }
        ),
        wrapping,
        (whole, fraction, currency, wrap) => {
          const text = fraction === "" ? `${whole}` : `${whole}.${fraction}`
          const expected = whole * 100n + BigInt(fraction.padEnd(2, "0"))
          const [transaction] = parseGatewayResponse(withAmount(currency.element, wrap(text))).transactions
          const amount = transaction?.capturedAmount
          expect(amount?.minor).toBe(Number(expected))
          expect(amount?.currency).toBe(currency.alpha)
          expect(amount?.decimal).toBe(`${whole}.${fraction.padEnd(2, "0")}`)
          // Same answer as the package's own money helper, and stable when read back.
          expect(decimalToMinor(text, "DKK")).toBe(amount?.minor)
          const again = parseGatewayResponse(withAmount(currency.element, amount?.decimal ?? "")).transactions[0]
          expect(again?.capturedAmount).toEqual(amount)
        }
      ),
      { numRuns: 2000 }
    )
  })

  it("follows the currency's exponent: JPY 0 digits, KWD 3", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.constantFrom(
          { element: "<MerchantCurrency>392</MerchantCurrency>", exponent: 0, alpha: "JPY" },
          { element: "<MerchantCurrency>414</MerchantCurrency>", exponent: 3, alpha: "KWD" }
        ),
        fc.stringMatching(/^\d{0,3}$/),
        fc.stringMatching(/^0{0,2}$/),
        (whole, currency, rawFraction, zeros) => {
          const fraction = rawFraction.slice(0, currency.exponent) + zeros
          const text = fraction === "" ? `${whole}` : `${whole}.${fraction}`
          const kept = fraction.slice(0, currency.exponent).padEnd(currency.exponent, "0")
          const [transaction] = parseGatewayResponse(withAmount(currency.element, text)).transactions
          expect(transaction?.capturedAmount).toEqual({
            minor: Number(BigInt(`${whole}${kept}`)),
            decimal: currency.exponent === 0 ? `${whole}` : `${whole}.${kept}`,
            currency: currency.alpha,
          })
        }
      ),
      { numRuns: 2000 }
    )
  })
})

describe("damaged bodies never escape as anything but AltaPayBadResponseError", () => {
  it("a valid document cut at any point parses or is rejected as a bad response", () => {
    fc.assert(
      fc.property(fc.constantFrom(...documents), fc.nat(), (document, at) => {
        parsesOrRejectsCleanly(document.slice(0, at % (document.length + 1)))
      }),
      { numRuns: 2000 }
    )
  })

  it("a valid document with characters inserted or replaced parses or is rejected as a bad response", () => {
    const noise = fc.string({
      unit: fc.constantFrom("<", ">", "/", "&", ";", '"', "'", "=", "!", "[", "]", "?", " ", "\n", "a", "0", "9", ".", "-", "#", "x"),
      minLength: 1,
      maxLength: 6,
    })
    fc.assert(
      fc.property(fc.constantFrom(...documents), fc.nat(), fc.nat({ max: 6 }), noise, (document, at, removed, inserted) => {
        const position = at % (document.length + 1)
        parsesOrRejectsCleanly(document.slice(0, position) + inserted + document.slice(position + removed))
      }),
      { numRuns: 2000 }
    )
  })
})
