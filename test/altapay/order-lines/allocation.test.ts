import { roundTable, roundToTotal, splitInProportion, unitsShare } from "../../../src/altapay/order-lines/allocation"
import { ratio, type Ratio } from "../../../src/altapay/order-lines/exact"

const r = (n: number, d = 1): Ratio => ratio(BigInt(n), BigInt(d))

describe("roundToTotal", () => {
  it("rounds each part down or up so the parts add up, largest fractions up", () => {
    // 3.5 + 3.5 + 3.5 = 10.5 -> 11: two parts round up (the earlier ones on a tie).
    expect(roundToTotal([r(7, 2), r(7, 2), r(7, 2)], 11n)).toEqual([4n, 4n, 3n])
    // 11.2725 + 11.2725 = 22.545 -> 22.55 needs one part up: not both 11.27.
    expect(roundToTotal([r(112725, 100), r(112725, 100)], 2255n)).toEqual([1128n, 1127n])
  })

  it("keeps whole parts whole and refuses a total no rounding reaches", () => {
    expect(roundToTotal([r(5), r(1, 3)], 6n)).toEqual([5n, 1n])
    expect(roundToTotal([r(5), r(1, 3)], 7n)).toBeUndefined()
    expect(roundToTotal([r(-5, 2), r(5, 2)], 0n)).toEqual([-2n, 2n])
  })
})

describe("splitInProportion", () => {
  it("splits any total by weights of any sign, exactly", () => {
    expect(splitInProportion([r(100), r(25)], 3000n)).toEqual([2400n, 600n])
    expect(splitInProportion([r(2), r(-1)], 5n)).toEqual([10n, -5n])
    expect(splitInProportion([r(0), r(0)], 7n)).toEqual([7n, 0n])
  })
})

describe("unitsShare", () => {
  it("shares units cumulatively, so any split adds up to the whole", () => {
    const shares = [0, 1, 2].map((done) => unitsShare(1000n, done, 1, 3))
    expect(shares).toEqual([333n, 334n, 333n])
    expect(unitsShare(1000n, 1, 2, 3) + unitsShare(1000n, 0, 1, 3)).toBe(1000n)
  })
})

describe("roundTable", () => {
  it("rounds every row's total and tax and the grand total at once", () => {
    // Two rows of 10.02 net + 2.505 tax (12.525): total 25.05, tax 5.01.
    const table = roundTable(
      [
        { net: r(1002), tax: r(2505, 10) },
        { net: r(1002), tax: r(2505, 10) },
      ],
      2505n,
      501n
    )
    expect(table).toEqual({
      rows: [
        { total: 1253n, tax: 251n },
        { total: 1252n, tax: 250n },
      ],
      taxOff: 0n,
    })
  })

  it("trades which row rounds the other way when that lets the taxes reach the tax total", () => {
    // An item of 3.99 without tax and shipping of 4.00 + 0.50 tax: 8.49 -> 8, tax 0.50 -> 1.
    // Largest remainder alone rounds the item up and the shipping down (tax then 0); rounding the
    // item down and the shipping up is as close to half-up and reaches the tax total.
    const table = roundTable(
      [
        { net: r(399, 100), tax: r(0) },
        { net: r(4), tax: r(1, 2) },
      ],
      8n,
      1n
    )
    expect(table).toEqual({
      rows: [
        { total: 3n, tax: 0n },
        { total: 5n, tax: 1n },
      ],
      taxOff: 0n,
    })
  })

  it("says how far off the tax is when no rounding reaches it", () => {
    // One row: a total of 1.5 rounded down to 1 leaves room for a tax of 0 or 1 of 0.75.
    const table = roundTable([{ net: r(3, 4), tax: r(3, 4) }], 1n, 1n)
    expect(table?.rows).toEqual([{ total: 1n, tax: 1n }])
    expect(
      roundTable(
        [
          { net: r(1, 4), tax: r(1, 4) },
          { net: r(1, 4), tax: r(1, 4) },
        ],
        0n,
        1n
      )?.taxOff
    ).toBe(-1n)
  })
})
