/**
 * Generated funding files (scale tests, the payouts benchmark): listed like any other, streamed
 * to the client line by line, adding up to their Amount, the same lines in every run.
 */
import { createAltaPayClient, type FundingLine } from "../../src/altapay"
import { generatedLine } from "../../src/sandbox"
import { basicHeader, PASSWORD, start, USERNAME } from "./helpers"

describe("sandbox generated funding files", () => {
  test("a 25,000-line file is sent chunked, read whole by the client and adds up to its Amount", async () => {
    const sandbox = await start({ fundingDelayMs: false })
    const client = createAltaPayClient({ checkoutUrl: sandbox.url, gatewayUrl: sandbox.url, username: USERNAME, password: PASSWORD })
    try {
      const stored = sandbox.fundings.addGenerated({
        lines: 25_000,
        firstIndex: 1_000,
        currency: "DKK",
        date: "2026-05-04",
        paymentPrefix: "cap-",
        refundPrefix: "ref-",
        filename: "Generated_1",
      })
      expect(stored).toMatchObject({ filename: "Generated_1", currency: "DKK", generated: { lines: 25_000, firstIndex: 1_000 } })
      expect(stored.csv).toBeUndefined()

      const { fundings } = await client.fundings.fundingList()
      expect(fundings).toEqual([expect.objectContaining({ filename: "Generated_1", currency: "DKK", amountMinor: stored.amountMinor, fundingDate: stored.fundingDate })])

      const head = await fetch(fundings[0].downloadLink, { headers: { authorization: basicHeader() } })
      expect(head.headers.get("content-length")).toBeNull()
      expect(head.headers.get("transfer-encoding")).toBe("chunked")
      await head.body?.cancel()

      const lines: FundingLine[] = []
      let issues = 0
      for await (const entry of client.fundings.fundingDownload(fundings[0].downloadLink)) {
        if (entry.ok) lines.push(entry.line)
        else issues++
      }
      expect(issues).toBe(0)
      expect(lines).toHaveLength(25_000)
      const net = lines.reduce((sum, l) => sum + l.settlementAmountMinor + l.fixedFeeMinor + l.fixedFeeVatMinor + l.rateBasedFeeMinor + l.rateBasedFeeVatMinor, 0)
      expect(net).toBe(stored.amountMinor)
      expect(lines[0]).toMatchObject({ type: "payment", reconciliationIdentifier: "cap-1000", date: "2026-05-04", transactionCurrency: "DKK", settlementCurrency: "DKK" })
      expect(lines[9]).toMatchObject({ type: "refund", reconciliationIdentifier: "ref-1009" })
      expect(lines[9].settlementAmountMinor).toBeLessThan(0)

      // Line n is the series' line firstIndex + n, whatever the file: what a benchmark records as Medusa's side.
      const expected = generatedLine(stored.generated!, 1_009)
      expect(lines[9]).toMatchObject({
        paymentId: expected.transaction?.paymentId,
        transactionAmountMinor: expected.transaction?.amountMinor,
        settlementAmountMinor: expected.settlementAmountMinor,
      })
    } finally {
      await sandbox.close()
    }
  }, 60_000)

  test("a truncate fault sends the first half of the generated CSV, properly framed", async () => {
    const sandbox = await start({ fundingDelayMs: false })
    try {
      const stored = sandbox.fundings.addGenerated({ lines: 100 })
      const link = `${sandbox.gatewayUrl}/merchant/API/fundingDownload?id=${stored.id}`
      const whole = await (await fetch(link, { headers: { authorization: basicHeader() } })).text()
      expect(whole.trimEnd().split("\n")).toHaveLength(101)
      sandbox.faults.add({ route: "fundingDownload", kind: "truncate" })
      const cut = await fetch(link, { headers: { authorization: basicHeader() } })
      expect(cut.headers.get("content-length")).toBe(String(Math.floor(Buffer.byteLength(whole) / 2)))
      expect(whole.startsWith(await cut.text())).toBe(true)
    } finally {
      await sandbox.close()
    }
  })

  test("the number of lines is checked", async () => {
    const sandbox = await start({ fundingDelayMs: false })
    try {
      expect(() => sandbox.fundings.addGenerated({ lines: 0 })).toThrow(/lines must be a whole number from 1 to 1000000/)
      expect(() => sandbox.fundings.addGenerated({ lines: 1_000_001 })).toThrow(/lines must be/)
      expect(() => sandbox.fundings.addGenerated({ lines: 10, date: "May 4th" })).toThrow(/YYYY-MM-DD/)
      expect(sandbox.fundings.list()).toEqual([])
    } finally {
      await sandbox.close()
    }
  })
})
