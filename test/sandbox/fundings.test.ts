/**
 * The sandbox's payouts over raw HTTP: when a capture or refund reaches a funding file (the
 * settlement delay, switchable off), the documented CSV it serves, and the Basic auth both
 * fundingList and the DownloadLink require.
 */
import { XMLParser } from "fast-xml-parser"
import { basicHeader, gateway, start, authorizedTransaction } from "./helpers"

const DAY = 24 * 60 * 60 * 1000
const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === "Funding" || name === "Shop" })

async function list(url: string, page = "0", auth = basicHeader()): Promise<{ status: number; fundings: any[]; pages: string; errorCode: string }> {
  const response = await fetch(`${url}/merchant/API/fundingList?page=${page}`, { headers: { authorization: auth } })
  const text = await response.text()
  const body = response.status === 200 ? parser.parse(text).APIResponse : undefined
  return { status: response.status, fundings: body?.Body?.Fundings?.Funding ?? [], pages: body?.Body?.Fundings?.["@_numberOfPages"], errorCode: body?.Header?.ErrorCode }
}

async function download(link: string, auth = basicHeader()): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(link, { headers: { authorization: auth } })
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
}

describe("sandbox funding files", () => {
  test("a capture and a refund reach a funding file after the settlement delay, once, in the documented CSV", async () => {
    let now = Date.parse("2026-05-04T09:00:00Z")
    const sandbox = await start({ now: () => now, fundingDelayMs: 2 * DAY })
    try {
      const transactionId = await authorizedTransaction(sandbox, { amount: 250, currency: "DKK" })
      await gateway(sandbox, "captureReservation", { transaction_id: transactionId, reconciliation_identifier: "cap-1" })
      await gateway(sandbox, "refundCapturedReservation", { transaction_id: transactionId, amount: "50.00", reconciliation_identifier: "ref-1" })
      now += DAY
      expect((await list(sandbox.url)).fundings).toEqual([])
      now += DAY
      const { fundings, pages } = await list(sandbox.url)
      expect(pages).toBe("1")
      expect(fundings).toHaveLength(1)
      expect(fundings[0]).toMatchObject({ FundingDate: "2026-05-06", CreatedDate: "2026-05-06", Acquirer: "SandboxAcquirer", Shops: { Shop: [expect.any(String)] } })
      expect(fundings[0].Amount).toMatch(/^\d+\.\d{2} EUR$/)

      const file = await download(fundings[0].DownloadLink)
      expect(file.status).toBe(200)
      expect(file.type).toMatch(/^text\/csv/)
      const [header, ...rows] = file.text.trimEnd().split("\n")
      // AltaPay's own files' header, byte for byte (AltaPay/sdk-csharp Funding42221.csv, AltaPay/api-php fundingdownload.txt).
      expect(header).toBe(
        'Date;Type;ID;"Reconciliation Identifier";Payment;Order;Terminal;Shop;"Transaction Currency";"Transaction Amount";"Exchange Rate";"Settlement Currency";"Settlement Amount";"Fixed Fee";"Fixed Fee VAT";"Rate Based Fee";"Rate Based Fee VAT"'
      )
      // `;`-separated, the Payment column the numeric transaction id, fees negative, empty cells where there is nothing.
      expect(rows.map((r) => r.split(";"))).toEqual([
        [
          "2026-05-05",
          "payment",
          expect.any(String),
          "cap-1",
          transactionId,
          expect.any(String),
          expect.any(String),
          expect.any(String),
          "DKK",
          "250.00",
          "13.4",
          "EUR",
          "33.50",
          "-0.25",
          "-0.06",
          "-0.50",
          "-0.13",
        ],
        [
          "2026-05-05",
          "refund",
          expect.any(String),
          "ref-1",
          transactionId,
          expect.any(String),
          expect.any(String),
          expect.any(String),
          "DKK",
          "-50.00",
          "13.4",
          "EUR",
          "-6.70",
          "-0.25",
          "-0.06",
          "0.00",
          "0.00",
        ],
        ["2026-05-06", "unknown", expect.any(String), "", "", "", "", "", "", "", "", "EUR", "0.10", "", "", "", ""],
      ])
      expect(transactionId).toMatch(/^\d+$/)

      now += 10 * DAY
      expect((await list(sandbox.url)).fundings).toHaveLength(1)
    } finally {
      await sandbox.close()
    }
  })

  test("fundingDelayMs false makes no files of its own; a payout currency with no rate settles unconverted", async () => {
    let now = Date.parse("2026-05-04T09:00:00Z")
    const off = await start({ now: () => now, fundingDelayMs: false })
    const own = await start({ now: () => now, fundingDelayMs: 0, fundingCurrency: "ISK", fundingUnknownLine: false })
    try {
      for (const sandbox of [off, own]) {
        const transactionId = await authorizedTransaction(sandbox, { amount: 100, currency: "DKK" })
        await gateway(sandbox, "captureReservation", { transaction_id: transactionId })
      }
      now += 30 * DAY
      expect((await list(off.url)).fundings).toEqual([])
      const [funding] = (await list(own.url)).fundings
      expect(funding.Amount).toMatch(/ DKK$/)
      const rows = (await download(funding.DownloadLink)).text.trimEnd().split("\n").slice(1)
      expect(rows).toHaveLength(1)
      expect(rows[0].split(";").slice(8, 13)).toEqual(["DKK", "100.00", "100", "DKK", "100.00"])
    } finally {
      await Promise.all([off.close(), own.close()])
    }
  })

  test("both calls need the API user's Basic auth; a bad page is a Header error", async () => {
    const sandbox = await start({ exampleFundings: true })
    try {
      expect((await list(sandbox.url, "0", "Basic " + Buffer.from("x:y").toString("base64"))).status).toBe(401)
      const { fundings } = await list(sandbox.url)
      expect(fundings).toHaveLength(2)
      expect((await download(fundings[0].DownloadLink, "")).status).toBe(401)
      expect((await download(fundings[0].DownloadLink)).status).toBe(200)
      expect((await list(sandbox.url, "first")).errorCode).toBe("3")
      const calls = sandbox.ledger().filter((e) => e.operation.startsWith("funding"))
      expect(calls.map((e) => [e.operation, e.auth, e.status])).toEqual([
        ["fundingList", "invalid", 401],
        ["fundingList", "basic", 200],
        ["fundingDownload", "none", 401],
        ["fundingDownload", "basic", 200],
        ["fundingList", "basic", 200],
      ])
    } finally {
      await sandbox.close()
    }
  })
})
