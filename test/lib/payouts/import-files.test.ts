/**
 * One account's files: every page listed, a file already stored not downloaded, one that fails
 * reported while the next still goes, and a file whose lines do not add up named in a warning.
 */
import type { Funding } from "../../../src/altapay"
import { importAccountFiles, type AccountImport } from "../../../src/lib/payouts/import-files"
import type { PayoutAccount } from "../../../src/lib/payouts/accounts"

const emptyImport = (): AccountImport => ({ filesImported: 0, filesSkipped: 0, filesBeforeReconcileFrom: 0, linesImported: 0, problems: [] })

const funding = (filename: string, fundingDate = "2026-11-20"): Funding => ({
  filename,
  contractIdentifier: "C-1",
  shops: ["Shop"],
  acquirer: "Test",
  fundingDate,
  amountMinor: 1000,
  currency: "EUR",
  createdDate: "2026-11-20",
  downloadLink: `https://gw.example/merchant/API/fundingDownload?id=${filename}`,
})

/** A funding as the payouts module keeps it once imported, stored for good. */
const storedAs = (f: Funding) => ({ fundingDate: f.fundingDate, currency: f.currency, amountMinor: f.amountMinor, final: true })

it("imports every new file of every page, reports a failed one and goes on", async () => {
  const pages = [
    [funding("stored"), funding("broken")],
    [funding("short"), funding("raced")],
  ]
  const client = {
    fundings: {
      fundingList: jest.fn(async ({ page }: { page: number }) => ({ page, numberOfPages: pages.length, fundings: pages[page] ?? [] })),
      fundingDownload: jest.fn((link: string) => link),
    },
  }
  const payouts = {
    storedFundingFile: jest.fn(async (_account: string, filename: string) => (filename === "stored" ? storedAs(funding("stored")) : undefined)),
    importFundingFile: jest.fn(async ({ funding: f }: { funding: Funding; account: string; providerId: string }) => {
      if (f.filename === "broken") throw new Error("AltaPay answered fundingDownload with HTTP 500")
      if (f.filename === "raced") return { outcome: "already_imported", fileId: "apfile_2", lines: 0, unreadableLines: 0, netMinor: 0, amountMinor: 1000, totalsAgree: true }
      return { outcome: "imported", fileId: "apfile_1", lines: 7, unreadableLines: 0, netMinor: 900, amountMinor: 1000, totalsAgree: false }
    }),
  }
  const account = { account: "gw.example/shop_api", providerIds: ["pp_altapay_a"], registrations: [{ providerId: "pp_altapay_a", client }] } as unknown as PayoutAccount
  const warn = jest.fn()
  const result: AccountImport = emptyImport()

  await importAccountFiles(payouts as never, account, { warn }, result)

  // Page 2 too: it would exist if AltaPay numbered its pages from 1; here it is empty.
  expect(client.fundings.fundingList.mock.calls.map(([input]) => input.page)).toEqual([0, 1, 2])
  expect(payouts.importFundingFile.mock.calls.map(([input]) => [input.funding.filename, input.account, input.providerId])).toEqual([
    ["broken", "gw.example/shop_api", "pp_altapay_a"],
    ["short", "gw.example/shop_api", "pp_altapay_a"],
    ["raced", "gw.example/shop_api", "pp_altapay_a"],
  ])
  expect(result).toEqual({
    filesImported: 1,
    filesSkipped: 2,
    filesBeforeReconcileFrom: 0,
    linesImported: 7,
    problems: [expect.stringMatching(/^funding file broken of gw\.example\/shop_api was not imported: AltaPay answered fundingDownload with HTTP 500/)],
  })
  expect(warn.mock.calls.map(([line]) => line)).toEqual([
    expect.stringContaining("funding file broken"),
    expect.stringMatching(/funding file short .* net 9\.00 EUR, but AltaPay lists the funding as 10\.00 EUR/),
  ])
})

it("reports, and does not import, a funding listed under a stored filename with another date, amount or currency", async () => {
  const stored = funding("Daily_EUR.csv")
  const listed = [
    stored,
    { ...funding("Daily_EUR.csv", "2026-11-21") },
    { ...stored, amountMinor: 1001 },
    { ...stored, currency: "DKK" },
    { ...stored, downloadLink: "https://gw.example/x?id=9" },
  ]
  const client = {
    fundings: { fundingList: jest.fn(async ({ page }: { page: number }) => ({ page, numberOfPages: 1, fundings: page === 0 ? listed : [] })), fundingDownload: jest.fn() },
  }
  const payouts = { storedFundingFile: jest.fn(async () => storedAs(stored)), importFundingFile: jest.fn() }
  const account = { account: "gw.example/shop_api", providerIds: ["pp_altapay_a"], registrations: [{ providerId: "pp_altapay_a", client }] } as unknown as PayoutAccount
  const result: AccountImport = emptyImport()

  await importAccountFiles(payouts as never, account, { warn: jest.fn() }, result)

  // The same funding listed again (even under another download link) is the stored one.
  expect(payouts.importFundingFile).not.toHaveBeenCalled()
  expect(result.filesSkipped).toBe(2)
  expect(result.problems).toEqual([
    expect.stringMatching(
      /^AltaPay lists funding file Daily_EUR\.csv of gw\.example\/shop_api as 2026-11-21, 10\.00 EUR, but the file stored under that name is 2026-11-20, 10\.00 EUR\. .*not imported.*ask AltaPay/
    ),
    expect.stringContaining("as 2026-11-20, 10.01 EUR"),
    expect.stringContaining("as 2026-11-20, 10.00 DKK"),
  ])
})

it("stops at a page AltaPay does not answer, naming it", async () => {
  const client = { fundings: { fundingList: jest.fn(async () => Promise.reject(new Error("connect ECONNREFUSED"))) } }
  const account = { account: "gw.example/shop_api", providerIds: ["pp_altapay_a"], registrations: [{ providerId: "pp_altapay_a", client }] } as unknown as PayoutAccount
  const result: AccountImport = emptyImport()
  await importAccountFiles({} as never, account, { warn: jest.fn() }, result)
  expect(result.problems).toEqual([expect.stringMatching(/^fundingList page 0 of gw\.example\/shop_api failed: connect ECONNREFUSED/)])
})

it("reads the page after the last one AltaPay counts (pages numbered from 1), and an error there is no problem", async () => {
  const oneBased: Record<number, Funding[]> = { 1: [funding("first")], 2: [funding("newest")] }
  const payouts = {
    storedFundingFile: jest.fn(async () => undefined),
    importFundingFile: jest.fn(async (_input: { funding: Funding }) => ({
      outcome: "imported",
      fileId: "apfile_1",
      lines: 1,
      unreadableLines: 0,
      netMinor: 1000,
      amountMinor: 1000,
      totalsAgree: true,
    })),
  }
  const run = async (fundingList: (input: { page: number }) => Promise<unknown>) => {
    const client = { fundings: { fundingList: jest.fn(fundingList), fundingDownload: jest.fn((link: string) => link) } }
    const account = { account: "gw.example/shop_api", providerIds: ["pp_altapay_a"], registrations: [{ providerId: "pp_altapay_a", client }] } as unknown as PayoutAccount
    const result: AccountImport = emptyImport()
    await importAccountFiles(payouts as never, account, { warn: jest.fn() }, result)
    return result
  }
  // A gateway numbering from 1 that answers page 0 as page 1.
  const fromOne = await run(async ({ page }) => ({ page, numberOfPages: 2, fundings: oneBased[Math.max(page, 1)] ?? [] }))
  expect(payouts.importFundingFile.mock.calls.map(([input]) => input.funding.filename)).toEqual(["first", "first", "newest"])
  expect(fromOne).toMatchObject({ filesImported: 3, problems: [] })
  // A gateway that refuses a page beyond its last: nothing to report.
  const refusing = await run(async ({ page }) => (page < 1 ? { page, numberOfPages: 1, fundings: [] } : Promise.reject(new Error("page out of range"))))
  expect(refusing.problems).toEqual([])
})

it("does not download fundings dated before the account's reconcileFrom, and counts them", async () => {
  const client = {
    fundings: {
      fundingList: jest.fn(async ({ page }: { page: number }) => ({
        page,
        numberOfPages: 1,
        fundings: page === 0 ? [funding("old", "2026-10-31"), funding("first-day", "2026-11-01")] : [],
      })),
      fundingDownload: jest.fn((link: string) => link),
    },
  }
  const payouts = {
    storedFundingFile: jest.fn(async () => undefined),
    importFundingFile: jest.fn(async (_input: { funding: Funding }) => ({
      outcome: "imported",
      fileId: "apfile_1",
      lines: 2,
      unreadableLines: 0,
      netMinor: 1000,
      amountMinor: 1000,
      totalsAgree: true,
    })),
  }
  const account = {
    account: "gw.example/shop_api",
    providerIds: ["pp_altapay_a"],
    registrations: [{ providerId: "pp_altapay_a", client }],
    reconcileFrom: "2026-11-01",
  } as unknown as PayoutAccount
  const result = emptyImport()
  await importAccountFiles(payouts as never, account, { warn: jest.fn() }, result)
  expect(payouts.importFundingFile.mock.calls.map(([input]) => input.funding.filename)).toEqual(["first-day"])
  expect(client.fundings.fundingDownload).not.toHaveBeenCalledWith(expect.stringContaining("old"))
  expect(result).toMatchObject({ filesImported: 1, filesBeforeReconcileFrom: 1, problems: [] })
})
