/** `npx altapay-sandbox --example-fundings`: a payout to look at without making payments first. */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { createAltaPayClient, type FundingLine } from "../../src/altapay"
import { parseArgs } from "../../src/sandbox/cli"
import { spawnCli } from "./cli-process"

const bin = join(__dirname, "..", "..", "bin", "altapay-sandbox.js")

describe("altapay-sandbox funding options", () => {
  test("--help names --example-fundings and --funding-delay", () => {
    const run = spawnSync(process.execPath, [bin, "--help"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } })
    expect(run.stdout + run.stderr).toMatch(/--example-fundings\s+start with example funding files/)
    expect(run.stdout + run.stderr).toContain("--funding-delay <ms|off>")
  }, 30_000)

  test("the options parse; a bad delay is refused", () => {
    expect(parseArgs(["--example-fundings", "--funding-delay", "off"])).toMatchObject({ exampleFundings: true, fundingDelayMs: false })
    expect(parseArgs(["--funding-delay=60000"])).toMatchObject({ fundingDelayMs: 60_000 })
    expect(() => parseArgs(["--funding-delay", "soon"])).toThrow(/milliseconds or "off"/)
    expect(() => parseArgs(["--example-fundings=yes"])).toThrow(/takes no value/)
  })

  test("--example-fundings starts with funding files the client reads: every documented Type, fees and a conversion", async () => {
    const cli = await spawnCli(["--port", "0", "--quiet", "--example-fundings"])
    const client = createAltaPayClient({ checkoutUrl: cli.url, gatewayUrl: cli.url, username: "sandbox", password: "sandbox" })
    try {
      const { fundings, numberOfPages } = await client.fundings.fundingList()
      expect(numberOfPages).toBe(1)
      expect(fundings).toHaveLength(2)
      const read: FundingLine[] = []
      for (const funding of fundings) {
        for await (const entry of client.fundings.fundingDownload(funding.downloadLink)) if (entry.ok) read.push(entry.line)
      }
      expect(new Set(read.map((l) => l.type))).toEqual(
        new Set(["payment", "refund", "adjustment", "rolling", "roundoff", "fee", "unknown", "payment_rejected", "refund_rejected", "chargeback"])
      )
      expect(read.find((l) => l.transactionCurrency === "DKK" && l.type === "payment")).toMatchObject({ settlementCurrency: "EUR", exchangeRate: "13.4" })
      // Fees are negative, as AltaPay's files write a fee charged.
      expect(read.some((l) => l.fixedFeeMinor < 0 && l.rateBasedFeeMinor < 0)).toBe(true)
    } finally {
      await client.close()
      await cli.stop()
    }
  }, 30_000)
})
