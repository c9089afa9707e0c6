import {
  amountText,
  allocate,
  currencyExponent,
  currencyInfo,
  decimalToMinor,
  divRound,
  MAX_MINOR_UNITS,
  minorToDecimal,
  minorToNumber,
  toAlphaCurrency,
  toNumericCurrency,
} from "../../src/altapay/money"
import { issuesOf } from "../helpers/issues"

describe("currencyInfo", () => {
  it("knows the exponent of every currency a merchant may charge in", () => {
    expect(currencyExponent("DKK")).toBe(2)
    expect(currencyExponent("jpy")).toBe(0)
    expect(currencyExponent("KWD")).toBe(3)
    expect(currencyExponent("BHD")).toBe(3)
  })

  it("accepts the numeric codes AltaPay answers with, padded or not", () => {
    expect(currencyInfo("208")).toEqual({ alpha: "DKK", numeric: "208", exponent: 2 })
    expect(toAlphaCurrency("8")).toBe("ALL")
    expect(toAlphaCurrency(978)).toBe("EUR")
    expect(toNumericCurrency("usd")).toBe("840")
  })

  it("names the currency field for an unknown code", () => {
    expect(issuesOf(() => currencyInfo("XYZ"))).toEqual([expect.objectContaining({ field: "currency" })])
    expect(issuesOf(() => currencyInfo("999999"))[0].field).toBe("currency")
  })
})

describe("decimalToMinor", () => {
  it("reads decimal text exactly (9.66 is 966 øre, not 965.9999...)", () => {
    expect(decimalToMinor("9.66", "DKK")).toBe(966)
    expect(decimalToMinor("9.67", "DKK")).toBe(967)
    expect(decimalToMinor("1.005", "KWD")).toBe(1005)
    expect(decimalToMinor("0.29", "EUR")).toBe(29)
    expect(decimalToMinor("4.35", "EUR")).toBe(435)
    expect(decimalToMinor("1234567.89", "EUR")).toBe(123456789)
  })

  it("reads JS numbers through their shortest text, so 9.66 stays 966", () => {
    expect(decimalToMinor(9.66, "DKK")).toBe(966)
    expect(decimalToMinor(0.1, "DKK")).toBe(10)
    expect(decimalToMinor(1.15, "EUR")).toBe(115)
  })

  it("refuses the float result of 0.1 + 0.2 instead of silently rounding it", () => {
    const issues = issuesOf(() => decimalToMinor(0.1 + 0.2, "DKK", "refund.amount"))
    expect(issues[0].field).toBe("refund.amount")
  })

  it("pads and accepts trailing zeros beyond the exponent", () => {
    expect(decimalToMinor("10", "DKK")).toBe(1000)
    expect(decimalToMinor("10.5", "DKK")).toBe(1050)
    expect(decimalToMinor(".5", "DKK")).toBe(50)
    expect(decimalToMinor("5.", "DKK")).toBe(500)
    expect(decimalToMinor("100.00", "JPY")).toBe(100)
    expect(decimalToMinor("1.500", "DKK")).toBe(150)
    expect(decimalToMinor(" 7.25 ", "USD")).toBe(725)
  })

  it("handles currencies without and with three decimals", () => {
    expect(decimalToMinor("1500", "JPY")).toBe(1500)
    expect(decimalToMinor("12.345", "KWD")).toBe(12345)
    expect(decimalToMinor("0.001", "BHD")).toBe(1)
  })

  it("accepts numeric currency codes", () => {
    expect(decimalToMinor("9.66", "208")).toBe(966)
    expect(decimalToMinor("9.66", "8")).toBe(966)
    expect(decimalToMinor("150", 392)).toBe(150)
  })

  it("keeps the sign", () => {
    expect(decimalToMinor("-12.50", "DKK")).toBe(-1250)
    expect(decimalToMinor("+12.50", "DKK")).toBe(1250)
    expect(decimalToMinor("-0", "DKK")).toBe(0)
  })

  it("rejects amounts that need more decimals than the currency has, naming the field", () => {
    expect(issuesOf(() => decimalToMinor("1.5", "JPY", "amount"))).toEqual([expect.objectContaining({ field: "amount", message: expect.stringContaining("JPY") })])
    expect(issuesOf(() => decimalToMinor("9.665", "DKK", "orderLines.0.unitPrice"))[0].field).toBe("orderLines.0.unitPrice")
  })

  it("rejects text that is not a plain decimal", () => {
    for (const bad of ["", ".", "-", "abc", "1,50", "1e3", "0x10", "1.2.3", "NaN"]) {
      expect(issuesOf(() => decimalToMinor(bad, "DKK", "amount"))[0].field).toBe("amount")
    }
    expect(issuesOf(() => decimalToMinor(Number.NaN, "DKK"))[0].field).toBe("amount")
    expect(issuesOf(() => decimalToMinor(Infinity, "DKK"))[0].field).toBe("amount")
    expect(issuesOf(() => decimalToMinor(1e21, "DKK"))[0].field).toBe("amount")
  })

  it("rejects amounts beyond the safe integer range", () => {
    expect(issuesOf(() => decimalToMinor("90071992547409.92", "DKK"))[0].message).toMatch(/too large/)
    expect(decimalToMinor("90071992547409.91", "DKK")).toBe(Number.MAX_SAFE_INTEGER)
  })

  it("rejects an unknown currency", () => {
    expect(issuesOf(() => decimalToMinor("1.00", "ZZZ"))[0].field).toBe("currency")
  })
})

describe("minorToDecimal and minorToNumber", () => {
  it("prints exactly the currency's exponent", () => {
    expect(minorToDecimal(966, "DKK")).toBe("9.66")
    expect(minorToDecimal(5, "DKK")).toBe("0.05")
    expect(minorToDecimal(0, "DKK")).toBe("0.00")
    expect(minorToDecimal(-1250, "DKK")).toBe("-12.50")
    expect(minorToDecimal(-5, "EUR")).toBe("-0.05")
    expect(minorToDecimal(1500, "JPY")).toBe("1500")
    expect(minorToDecimal(1, "KWD")).toBe("0.001")
    expect(minorToDecimal(12345, "BHD")).toBe("12.345")
    expect(minorToDecimal(966, "208")).toBe("9.66")
  })

  it("round-trips with decimalToMinor", () => {
    for (const minor of [0, 1, 9, 10, 99, 100, 966, 123456789, -1, -966, MAX_MINOR_UNITS, -MAX_MINOR_UNITS]) {
      for (const currency of ["JPY", "DKK", "KWD"]) {
        expect(decimalToMinor(minorToDecimal(minor, currency), currency)).toBe(minor)
      }
    }
  })

  it("gives the JSON number whose text is the exact decimal", () => {
    expect(minorToNumber(966, "DKK")).toBe(9.66)
    expect(String(minorToNumber(30, "DKK"))).toBe("0.3")
    expect(minorToNumber(1500, "JPY")).toBe(1500)
    expect(minorToNumber(1005, "KWD")).toBe(1.005)
    expect(JSON.stringify({ value: minorToNumber(967, "DKK") })).toBe('{"value":9.67}')
  })

  it("refuses fractional or unsafe minor amounts", () => {
    expect(issuesOf(() => minorToDecimal(9.5, "DKK"))[0].field).toBe("amount")
    expect(issuesOf(() => minorToDecimal(Number.MAX_SAFE_INTEGER + 1, "DKK"))[0].field).toBe("amount")
  })

  it("sends no amount of 10^15 minor units or more: its JSON number would no longer be exact", () => {
    expect(MAX_MINOR_UNITS).toBe(10 ** 15 - 1)
    expect(minorToNumber(MAX_MINOR_UNITS, "DKK")).toBe(9999999999999.99)
    expect(issuesOf(() => minorToNumber(10 ** 15, "DKK"))[0].message).toMatch(/too large/)
    expect(issuesOf(() => minorToDecimal(-(10 ** 15), "KWD"))[0].message).toMatch(/too large/)
  })

  it("refuses NaN", () => {
    expect(issuesOf(() => minorToNumber(Number.NaN, "DKK"))[0].field).toBe("amount")
  })
})

describe("amountText", () => {
  it("reads as people write amounts, and never guesses the decimals of a currency ISO 4217 does not list", () => {
    expect(amountText(96660, "dkk")).toBe("966.60 DKK")
    expect(amountText(-5, "EUR")).toBe("-0.05 EUR")
    expect(amountText(1234, "KWD")).toBe("1.234 KWD")
    expect(amountText(1250, "ZZZ")).toBe("1250 ZZZ (minor units)")
  })
})

describe("allocate", () => {
  it("splits an amount so the parts add up exactly", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33])
    expect(allocate(1000, [1, 2, 3, 4])).toEqual([100, 200, 300, 400])
    expect(allocate(5, [3, 7])).toEqual([2, 3]) // 1.5 / 3.5: tie on remainder goes to the earlier part
    expect(allocate(1, [1, 1])).toEqual([1, 0])
  })

  it("splits in proportion to the weights (largest remainder)", () => {
    expect(allocate(10, [80, 20])).toEqual([8, 2])
    expect(allocate(7, [80, 20])).toEqual([6, 1]) // 5.6 / 1.4
    expect(allocate(99, [5, 0, 5])).toEqual([50, 0, 49])
  })

  it("splits negative amounts symmetrically", () => {
    expect(allocate(-100, [1, 1, 1])).toEqual([-34, -33, -33])
  })

  it("gives everything to the first part when all weights are zero", () => {
    expect(allocate(42, [0, 0])).toEqual([42, 0])
  })

  it("holds for many random splits", () => {
    let seed = 7
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    for (let run = 0; run < 2000; run++) {
      const total = next(1_000_000) - 200_000
      const weights = Array.from({ length: 1 + next(6) }, () => next(10_000))
      const parts = allocate(total, weights)
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total)
      const sum = weights.reduce((a, b) => a + b, 0)
      if (sum === 0) continue
      parts.forEach((part, i) => expect(Math.abs(part - (total * weights[i]) / sum)).toBeLessThan(1))
    }
  })

  it("rejects bad input, naming it", () => {
    expect(issuesOf(() => allocate(10, []))[0].field).toBe("weights")
    expect(issuesOf(() => allocate(10, [1, -1]))[0].field).toBe("weights")
    expect(issuesOf(() => allocate(10, [1.5]))[0].field).toBe("weights")
    expect(issuesOf(() => allocate(10, [Number.NaN]))[0].field).toBe("weights")
    expect(issuesOf(() => allocate(10.5, [1]))[0].field).toBe("total")
  })
})

describe("divRound", () => {
  it("rounds half away from zero", () => {
    expect(divRound(5n, 2n)).toBe(3n)
    expect(divRound(-5n, 2n)).toBe(-3n)
    expect(divRound(5n, -2n)).toBe(-3n)
    expect(divRound(-5n, -2n)).toBe(3n)
    expect(divRound(7n, 3n)).toBe(2n)
    expect(divRound(8n, 3n)).toBe(3n)
    expect(divRound(-7n, 3n)).toBe(-2n)
    expect(divRound(0n, 7n)).toBe(0n)
    expect(divRound(10000n, 125n)).toBe(80n)
    expect(divRound(2499n * 100n, 125n)).toBe(1999n) // 1999.2
  })

  it("stays exact beyond 2^53", () => {
    const big = 2n ** 80n + 1n
    expect(divRound(big * 3n, 3n)).toBe(big)
  })

  it("refuses division by zero", () => {
    expect(() => divRound(1n, 0n)).toThrow(RangeError)
  })
})
