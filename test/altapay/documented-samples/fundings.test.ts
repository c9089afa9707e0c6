/**
 * AltaPay's own funding samples through our readers: the fundingList example of the documentation
 * and the PHP SDK's Funding, and a funding file laid out as the documentation describes it
 * (comma separated, the documented headers, dates YYYY-MM-DD, every documented Type). Samples in
 * funding-samples.ts.
 */
import { FUNDING_LINE_TYPES, parseGatewayResponse, readFundingFile, type FundingFileEntry } from "../../../src/altapay"
import { readFundingList } from "../../../src/altapay/fundings/list"
import { fundingDownloadColumns, fundingFileHeaders, fundingListXml, sdkPhpFundingXml } from "./funding-samples"

async function* chunks(text: string): AsyncGenerator<Buffer> {
  yield Buffer.from(text)
}

async function read(text: string): Promise<FundingFileEntry[]> {
  const out: FundingFileEntry[] = []
  for await (const entry of readFundingFile(chunks(text))) out.push(entry)
  return out
}

describe("fundingList samples", () => {
  it("the documentation's example: one Funding with two shops, 50.00 EUR, its padded DownloadLink trimmed", () => {
    const response = parseGatewayResponse(fundingListXml.value)
    expect(response.header).toMatchObject({ errorCode: 0, path: "API/fundingList" })
    expect(readFundingList(response.body, 0)).toEqual({
      numberOfPages: 1,
      fundings: [
        {
          filename: "TEST_SOAP_My_Company_2017-11-07_16_25_00_EUR",
          contractIdentifier: "1234567890123456",
          fundingType: "POS",
          shops: ["AltaPay Functional Test Shop", "AltaPay Functional Test Shop Two"],
          acquirer: "TestAcquirer",
          fundingDate: "2010-09-26",
          amountMinor: 5000,
          currency: "EUR",
          createdDate: "2010-09-27",
          downloadLink: "http://localhost/merchant.php/API/fundingDownload?id=1",
        },
      ],
    })
  })

  it("the PHP SDK's Funding: no FundingType, a single Shop, a zero amount", () => {
    const { fundings } = readFundingList(parseGatewayResponse(sdkPhpFundingXml.value).body, 0)
    expect(fundings).toEqual([expect.objectContaining({ filename: "fundingDownloadTest", shops: ["AltaPay Functional Test Shop"], amountMinor: 0, currency: "EUR" })])
    expect(fundings[0]).not.toHaveProperty("fundingType")
  })
})

describe("a funding file as the documentation lays it out", () => {
  const header = fundingFileHeaders.value.join(",")

  it("the documented headers are all recognised, in their documented order; a header-only file has no lines", async () => {
    expect(await read(`${header}\n`)).toEqual([])
    const entries = await read(`${header}\n2010-09-26,payment,1,rec,ab,o,t,s,EUR,1.00,${fundingDownloadColumns.value.oneToOneRate},EUR,1.00,0,0,0,0\n`)
    expect(entries).toEqual([{ ok: true, line: expect.objectContaining({ extra: {}, exchangeRate: "100", settlementAmountMinor: 100 }) }])
  })

  it("every documented Type is known to the reader", async () => {
    expect([...FUNDING_LINE_TYPES]).toEqual(fundingDownloadColumns.value.types)
    const body = fundingDownloadColumns.value.types.map((type, i) => `2010-09-26,${type},${i},,,,,,,,,EUR,0.00,,,,`).join("\n")
    const entries = await read(`${header}\n${body}\n`)
    expect(entries.map((e) => e.ok && [e.line.type, e.line.knownType, e.line.date])).toEqual(fundingDownloadColumns.value.types.map((t) => [t, true, "2010-09-26"]))
  })
})
