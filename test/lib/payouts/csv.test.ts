/** The payout CSV exports open in a spreadsheet as written: quoting, no formulas, amounts in their currency. */
import { EventEmitter } from "node:events"
import { LINE_CSV, PAYOUT_CSV, csvRow, decimal, neutraliseFormulas, streamCsv } from "../../../src/api/admin/altapay/_lib/payouts-csv"
import type { FundingFileSummary, FundingLineView } from "../../../src/modules/altapay-payouts/types"

it("quotes cells with commas, quotes and line breaks, and ends rows with CRLF", () => {
  expect(csvRow(["plain", 'say "hi"', "a,b", "two\nlines", null, undefined, 3])).toBe('plain,"say ""hi""","a,b","two\nlines",,,3\r\n')
})

it("keeps a cell a spreadsheet would run as a formula as text, and leaves negative amounts alone", () => {
  expect(csvRow(["=HYPERLINK(1)", "+A1", "@sum", "-1+1", "-12.50"])).toBe("'=HYPERLINK(1),'+A1,'@sum,'-1+1,-12.50\r\n")
})

describe("a formula after a separator a spreadsheet splits on", () => {
  // Danish Excel opens a CSV with ";" as its separator: the text after ";" is a cell of its own.
  it("neutralises the fragment after ';' (text AltaPay copies into a funding file)", () => {
    expect(neutraliseFormulas("ref;=2+5+cmd|' /C calc'!A0")).toBe("ref;'=2+5+cmd|' /C calc'!A0")
    expect(csvRow(["ref;=2+5+cmd|' /C calc'!A0", "x"])).toBe("ref;'=2+5+cmd|' /C calc'!A0,x\r\n")
  })

  it("after ',', tab, CR and LF too, behind spaces or a double quote, and at every such place in one cell", () => {
    expect(neutraliseFormulas("a,=1")).toBe("a,'=1")
    expect(neutraliseFormulas("a\t=1")).toBe("a\t'=1")
    expect(neutraliseFormulas("a\r=1")).toBe("a\r'=1")
    expect(neutraliseFormulas("a\n@SUM(A1)")).toBe("a\n'@SUM(A1)")
    expect(neutraliseFormulas("a\r\n-1+1")).toBe("a\r\n'-1+1")
    expect(neutraliseFormulas('a; "=1"')).toBe(`a;' "=1"`)
    expect(neutraliseFormulas("a;\t=1")).toBe("a;'\t'=1")
    expect(neutraliseFormulas("\r=1")).toBe("'\r'=1")
    expect(neutraliseFormulas("=1;+2,-3")).toBe("'=1;'+2,'-3")
    // Quoted for RFC 4180 readers; a ";" reader ignores the quote inside its cell, hence the ' after the LF.
    expect(csvRow(["x", "a\n=1"])).toBe('x,"a\n\'=1"\r\n')
  })

  it("leaves text without a formula start, and plain numbers, as they are", () => {
    expect(neutraliseFormulas("Order-1234/2023; paid 12.50 DKK")).toBe("Order-1234/2023; paid 12.50 DKK")
    expect(neutraliseFormulas("a-b=c")).toBe("a-b=c")
    for (const n of ["-0.25", "-12.50", "1250", "+100", "0"]) expect(neutraliseFormulas(n)).toBe(n)
    expect(neutraliseFormulas("-0.25;=1")).toBe("'-0.25;'=1")
    expect(neutraliseFormulas("-2E5")).toBe("'-2E5")
  })
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

describe("a funding line's row", () => {
  const line: FundingLineView = {
    id: "apline_1",
    fileId: "apfund_1",
    lineNumber: 2,
    date: "2026-11-20",
    type: "payment",
    knownType: true,
    acquirerId: null,
    reconciliationIdentifier: "medusa-capture-capt_1",
    altapayPaymentId: "10029471",
    altapayOrderId: "order-1",
    terminal: "Terminal",
    shop: "Shop",
    transactionCurrency: "DKK",
    transactionAmountMinor: 47_500,
    exchangeRate: "13.4",
    settlementCurrency: "EUR",
    settlementAmountMinor: 6_375,
    fixedFeeMinor: -25,
    fixedFeeVatMinor: -6,
    rateBasedFeeMinor: -86,
    rateBasedFeeVatMinor: 0,
    feesMinor: -117,
    netMinor: 6_258,
    extra: {},
    issue: null,
    cells: null,
    match: null,
  }
  const byColumn = (l: FundingLineView) => Object.fromEntries(LINE_CSV.header.map((name, i) => [name, LINE_CSV.row(l)[i]]))

  it("has each of the four fees as stored, VAT apart, beside their total and the net, in the settlement currency", () => {
    expect(byColumn(line)).toMatchObject({
      transaction_amount: "475.00",
      settlement_amount: "63.75",
      fixed_fee: "-0.25",
      fixed_fee_vat: "-0.06",
      rate_based_fee: "-0.86",
      rate_based_fee_vat: "0.00",
      fees: "-1.17",
      net: "62.58",
    })
  })

  it("leaves the fee cells of a line that could not be read empty, and its total 0", () => {
    const unreadable = {
      ...line,
      settlementAmountMinor: null,
      fixedFeeMinor: null,
      fixedFeeVatMinor: null,
      rateBasedFeeMinor: null,
      rateBasedFeeVatMinor: null,
      feesMinor: 0,
      netMinor: null,
    }
    expect(byColumn(unreadable)).toMatchObject({ fixed_fee: "", fixed_fee_vat: "", rate_based_fee: "", rate_based_fee_vat: "", fees: "0.00", net: "" })
  })
})

describe("a funding's row in the payouts list", () => {
  const file: FundingFileSummary = {
    id: "apfund_1",
    account: "testgateway.altapaysecure.com/shop_api",
    providerId: "pp_altapay_altapay",
    filename: "=Funding_EUR_0001",
    fundingDate: "2026-11-21",
    createdDate: "2026-11-21",
    contractIdentifier: null,
    acquirer: null,
    shops: ["Shop"],
    currency: "EUR",
    amountMinor: 6_258,
    grossMinor: 6_375,
    feesMinor: -117,
    feeVatMinor: -6,
    netMinor: 6_258,
    totalsAgree: true,
    lineCount: 3,
    unreadableLineCount: 1,
    matchedCount: 1,
    unmatchedCount: 0,
    importedAt: "2026-11-21T08:00:00.000Z",
  }

  it("has the funding's totals as decimals of its currency, fee VAT apart (a part of the fees), and its counts", () => {
    expect(Object.fromEntries(PAYOUT_CSV.header.map((name, i) => [name, PAYOUT_CSV.row(file)[i]]))).toEqual({
      funding_date: "2026-11-21",
      filename: "=Funding_EUR_0001",
      account: "testgateway.altapaysecure.com/shop_api",
      provider_id: "pp_altapay_altapay",
      currency: "EUR",
      gross: "63.75",
      fees: "-1.17",
      fee_vat: "-0.06",
      net: "62.58",
      amount: "62.58",
      totals_agree: true,
      lines: 3,
      unreadable_lines: 1,
      matched: 1,
      unmatched: 0,
      imported_at: "2026-11-21T08:00:00.000Z",
      id: "apfund_1",
    })
  })

  it("is written as text a spreadsheet does not run, with the header first", () => {
    expect(csvRow(PAYOUT_CSV.header)).toMatch(/^funding_date,filename,account,provider_id,currency,gross,fees,fee_vat,net,amount,totals_agree,/)
    expect(csvRow(PAYOUT_CSV.row({ ...file, totalsAgree: false, currency: "JPY", amountMinor: 500 }))).toMatch(
      /^2026-11-21,'=Funding_EUR_0001,.*,JPY,6375,-117,-6,6258,500,false,3,1,1,0,/
    )
  })
})
