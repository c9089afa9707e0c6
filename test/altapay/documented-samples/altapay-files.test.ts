/**
 * AltaPay's own funding fixtures (files/, sources in files/SOURCES.md) through our client's readers
 * and the payouts import's totals: every file must read as AltaPay's own client reads it (the
 * C# SDK's FundingContentResultTests, the PHP SDK's FundingDownloadTest and FundingListTest): the
 * same lines, the same amounts (an empty cell 0, fees negative), and totals that add up.
 */
import { readFileSync } from "node:fs"
import path from "node:path"
import { parseGatewayResponse, readFundingFile, type FundingFileEntry, type FundingLine } from "../../../src/altapay"
import { readFundingList } from "../../../src/altapay/fundings/list"
import { FundingFileTotals, lineNetMinor } from "../../../src/modules/altapay-payouts/totals"
import { sdkPhpFundingXml } from "./funding-samples"

const fixture = (name: string): Buffer => readFileSync(path.join(__dirname, "files", name))

async function read(bytes: Buffer, chunkSize = bytes.length): Promise<FundingFileEntry[]> {
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize)
  }
  const out: FundingFileEntry[] = []
  for await (const entry of readFundingFile(chunks())) out.push(entry)
  return out
}

const okLines = (entries: FundingFileEntry[]): FundingLine[] =>
  entries.map((e) => {
    if (!e.ok) throw new Error(e.issue.message)
    return e.line
  })

function totalsOf(entries: FundingFileEntry[]): { gross: number; fees: number; net: number; lines: number; unreadable: number } {
  const totals = new FundingFileTotals()
  entries.forEach((entry) => totals.add(entry))
  return { gross: Number(totals.gross), fees: Number(totals.fees), net: Number(totals.net), lines: totals.lines, unreadable: totals.unreadable }
}

const listOf = (name: string) => readFundingList(parseGatewayResponse(fixture(name).toString("utf8")).body, 0)

describe("AltaPay's funding files, as AltaPay's SDKs read them", () => {
  it("the files are `;`-separated with a partly quoted header, as AltaPay's readers split them", () => {
    for (const name of ["api-php-fundingdownload.txt", "sdk-csharp-Funding1.csv", "sdk-csharp-Funding42221.csv"]) {
      expect(fixture(name).toString("utf8")).toMatch(/^Date;Type;ID;"Reconciliation Identifier";Payment;Order;Terminal;Shop;"Transaction Currency";/)
    }
  })

  it("sdk-csharp Funding42221.csv: negative fees, a numeric Payment, USD converted to EUR; nets 62.64", async () => {
    for (const chunkSize of [7, 4096]) {
      const entries = await read(fixture("sdk-csharp-Funding42221.csv"), chunkSize)
      // FundingContentResultTests.TestFundingFileWithNonEmptyFields, value for value.
      expect(okLines(entries)).toEqual([
        {
          line: 2,
          date: "2016-05-27",
          type: "payment",
          knownType: true,
          id: "385a159f-dc8a-4f25-926f-b57bb985a875",
          reconciliationIdentifier: "6800",
          paymentId: "10029471",
          shopOrderId: "SLS00000925",
          terminal: "Lars Bertelsen Test Terminal",
          shop: "Lars Bertelsen",
          transactionCurrency: "USD",
          transactionAmountMinor: 8656,
          exchangeRate: "73.64800",
          settlementCurrency: "EUR",
          settlementAmountMinor: 6375,
          fixedFeeMinor: -25,
          fixedFeeVatMinor: 0,
          rateBasedFeeMinor: -86,
          rateBasedFeeVatMinor: 0,
          extra: {},
        },
      ])
      // 63.75 + (-0.25) + 0.00 + (-0.86) + 0.00: the fees are charged, so the payout is less.
      expect(totalsOf(entries)).toEqual({ gross: 6375, fees: -111, net: 6264, lines: 1, unreadable: 0 })
    }
  })

  it("sdk-csharp Funding1.csv: a fee line and a payment line with every amount empty read as 0.00", async () => {
    const entries = await read(fixture("sdk-csharp-Funding1.csv"))
    const lines = okLines(entries)
    // FundingContentResultTests.TestFundingFileWithEmptyFields: both records, every amount 0.00 EUR.
    expect(lines.map((l) => [l.line, l.date, l.type, l.id, l.shop])).toEqual([
      [2, "2010-12-24", "fee", "Monthly fee", "AltaPay Functional Test Shop"],
      [3, "2010-12-24", "payment", "FunctionalTestContractID-record1", "AltaPay Functional Test Shop"],
    ])
    for (const line of lines) {
      expect(line).toMatchObject({
        transactionCurrency: "EUR",
        transactionAmountMinor: 0,
        settlementCurrency: "EUR",
        settlementAmountMinor: 0,
        fixedFeeMinor: 0,
        fixedFeeVatMinor: 0,
        rateBasedFeeMinor: 0,
        rateBasedFeeVatMinor: 0,
      })
      // Empty cells AltaPay's SDK reads as "": no identifiers invented.
      for (const field of ["reconciliationIdentifier", "paymentId", "shopOrderId", "terminal", "exchangeRate"] as const) expect(line).not.toHaveProperty(field)
      expect(lineNetMinor(line)).toBe(0)
    }
    // The PHP SDK's Funding of the same test account and day (AltapayAPIFunding's doc comment) pays 0.00 EUR.
    const [funding] = readFundingList(parseGatewayResponse(sdkPhpFundingXml.value).body, 0).fundings
    expect(funding).toMatchObject({ fundingDate: "2010-12-24", contractIdentifier: "FunctionalTestContractID", shops: ["AltaPay Functional Test Shop"] })
    expect(totalsOf(entries)).toEqual({ gross: 0, fees: 0, net: funding.amountMinor, lines: 2, unreadable: 0 })
  })

  it("api-php fundingdownload.txt: one line after the header, a date with a time, empty fees; nets the list's 50.00 EUR", async () => {
    const entries = await read(fixture("api-php-fundingdownload.txt"))
    // FundingDownloadTest: __toArray(false) has one row.
    expect(okLines(entries)).toEqual([
      {
        line: 2,
        date: "2010-09-22",
        type: "payment",
        knownType: true,
        id: "5",
        reconciliationIdentifier: "3f664acc-c71d-45e6-8c6a-a15838451a77",
        paymentId: "5",
        shopOrderId: "settlement functional4c9a127b159a0",
        terminal: "Altapay Test Terminal",
        shop: "Altapay Functional Test Shop",
        transactionCurrency: "EUR",
        transactionAmountMinor: 5000,
        exchangeRate: "100.000000",
        settlementCurrency: "EUR",
        settlementAmountMinor: 5000,
        fixedFeeMinor: 0,
        fixedFeeVatMinor: 0,
        rateBasedFeeMinor: 0,
        rateBasedFeeVatMinor: 0,
        extra: {},
      },
    ])
    const [funding] = listOf("api-php-singlefundinglist.xml").fundings
    expect(totalsOf(entries)).toEqual({ gross: 5000, fees: 0, net: funding.amountMinor, lines: 1, unreadable: 0 })
  })
})

describe("AltaPay's fundingList fixtures (api-php FundingListTest)", () => {
  it("singlefundinglist.xml and multiplefundinglist.xml: one and two fundings of 50.00 EUR, their padded DownloadLinks trimmed", () => {
    const single = listOf("api-php-singlefundinglist.xml")
    const multiple = listOf("api-php-multiplefundinglist.xml")
    expect([single.numberOfPages, multiple.numberOfPages]).toEqual([1, 1])
    expect(single.fundings).toEqual([multiple.fundings[0]])
    expect(multiple.fundings.map((f) => [f.amountMinor, f.currency, f.downloadLink])).toEqual([
      [5000, "EUR", "http://localhost/merchant.php/API/fundingDownload?id=1"],
      [5000, "EUR", "http://localhost/merchant.php/API/fundingDownload?id=2"],
    ])
  })

  it("the first funding as test_funding_object checks it, and nothing more (no FundingType in the fixture)", () => {
    const [first] = listOf("api-php-multiplefundinglist.xml").fundings
    const { filename, contractIdentifier, shops, acquirer, fundingDate, createdDate, ...rest } = first
    expect([filename, contractIdentifier, shops.length, acquirer, fundingDate, createdDate]).toEqual([
      "CreatedByTest",
      "1234567890123456",
      2,
      "TestAcquirer",
      "2010-09-26",
      "2010-09-27",
    ])
    expect(Object.keys(rest).sort()).toEqual(["amountMinor", "currency", "downloadLink"])
  })
})
