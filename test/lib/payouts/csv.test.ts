/** The payout CSV exports open in a spreadsheet as written: quoting, no formulas, amounts in their currency. */
import { EventEmitter } from "node:events"
import { csvRow, decimal, streamCsv } from "../../../src/api/admin/altapay/_lib/payouts-csv"

it("quotes cells with commas, quotes and line breaks, and ends rows with CRLF", () => {
  expect(csvRow(["plain", 'say "hi"', "a,b", "two\nlines", null, undefined, 3])).toBe('plain,"say ""hi""","a,b","two\nlines",,,3\r\n')
})

it("keeps a text cell a spreadsheet would run as a formula as text, and leaves negative amounts alone", () => {
  expect(csvRow(["=HYPERLINK(1)", "+1", "@sum", "-12.50"], new Set([0, 1, 2]))).toBe("'=HYPERLINK(1),'+1,'@sum,-12.50\r\n")
})

it("writes amounts as decimals of their currency, the minor units of a currency it does not know", () => {
  expect(decimal(-1250, "DKK")).toBe("-12.50")
  expect(decimal(500, "JPY")).toBe("500")
  expect(decimal(1, "KWD")).toBe("0.001")
  expect(decimal(1250, "XYZ")).toBe("1250")
  expect(decimal(null, "DKK")).toBe("")
})

it("streaming a long export leaves no listener behind on the response, however often it waits for the client", async () => {
  const res = Object.assign(new EventEmitter(), {
    destroyed: false,
    status: () => res,
    setHeader: () => res,
    end: () => undefined,
    // The client is slow: every write fills the buffer, and it drains a moment later.
    write: () => {
      setImmediate(() => res.emit("drain"))
      return false
    },
  })
  const table = { header: ["n"], row: (n: number) => [String(n)], textColumns: new Set<number>() }
  await streamCsv(res as never, "export", table as never, async (offset) => ({ items: offset < 30 ? [offset] : [], count: 30 }))
  expect(res.listenerCount("close")).toBe(0)
  expect(res.listenerCount("drain")).toBe(0)
})
