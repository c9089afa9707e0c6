/**
 * docs/finance.md's worked example of fees and settlement (issue 41) is the sandbox's arithmetic,
 * not a hand calculation: each line's fees and net are what the sandbox's fee list
 * (`fees`, src/sandbox/fundings/funding-file.ts) and `netOf` give for its settlement amount, the
 * funding row sums the lines, and the figures the text quotes (gross, fees, their VAT, net) are
 * that row's.
 */
import { minorToDecimal } from "../../src/altapay/money"
import { fees, netOf } from "../../src/sandbox/fundings/funding-file"
import { readPage, section } from "../helpers/markdown-pages"
import { tableAfter } from "../helpers/markdown-table"

const PAGE = "docs/finance.md"
const HEADING = /^## A worked example: fees and settlement$/
const rows = tableAfter(PAGE, HEADING)
const minor = (cell: string) => Math.round(Number(cell.replace(/,/g, "")) * 100)
const dkk = (value: number) => minorToDecimal(value, "DKK")

test("the example has its captures, its refund and the funding", () => {
  expect(rows.map((cells) => cells[1])).toEqual(["`payment`", "`payment`", "`refund`", ""])
})

test.each(rows.filter((cells) => cells[1] !== ""))("%s: fees and net as the sandbox's fee list makes them", (_line, type, settlement, ...rest) => {
  const settlementMinor = minor(settlement)
  const lineFees = fees(settlementMinor, "DKK", type === "`payment`" ? "payment" : "refund")
  const net = netOf({
    date: "2026-01-01",
    type: type === "`payment`" ? "payment" : "refund",
    id: "X",
    settlementCurrency: "DKK",
    settlementAmountMinor: settlementMinor,
    fees: lineFees,
  })
  expect(rest).toEqual([...lineFees.map(dkk), dkk(net)])
})

test("the funding row sums the lines, and the text quotes its gross, fees, VAT and net", () => {
  const lines = rows.filter((cells) => cells[1] !== "")
  const funding = rows.find((cells) => cells[1] === "")!
  const sums = [2, 3, 4, 5, 6, 7].map((column) => lines.reduce((sum, cells) => sum + minor(cells[column]), 0))
  expect(funding.slice(2).map(minor)).toEqual(sums)
  const [gross, fixed, fixedVat, rate, rateVat, net] = sums
  const text = section(readPage(PAGE), HEADING).replace(/\s+/g, " ")
  expect(text).toContain(`**gross** ${dkk(gross)}`)
  expect(text).toContain(`**fees** ${dkk(fixed + fixedVat + rate + rateVat)} (of which VAT ${dkk(fixedVat + rateVat)})`)
  expect(text).toContain(`**net** ${dkk(net)}`)
  expect(gross + fixed + fixedVat + rate + rateVat).toBe(net)
})
