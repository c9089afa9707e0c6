/**
 * Chargebacks listed with the payouts module's exceptions: first, counted in, filtered by kind,
 * and paged as one list.
 */
import { mergeExceptionPages, type ListedPayoutException } from "../../../src/lib/payouts/chargeback-exceptions"
import type { ExceptionKind, PayoutException } from "../../../src/modules/altapay-payouts/types"

const blank = {
  fileId: null,
  filename: null,
  fundingDate: null,
  lineId: null,
  lineNumber: null,
  lineType: null,
  medusaId: null,
  paymentId: null,
  orderId: null,
  currency: null,
  medusaAmountMinor: null,
  medusaCurrency: null,
  altapayAmountMinor: null,
  date: null,
}
const chargebacks: ListedPayoutException[] = [1, 2, 3].map((n) => ({ ...blank, kind: "chargeback", message: `cb${n}` }))
const moduleRows: PayoutException[] = [1, 2, 3, 4, 5].map((n) => ({ ...blank, kind: "unfunded", message: `m${n}` }))

function moduleList() {
  const calls: Array<{ kinds: ExceptionKind[] | undefined; offset: number; limit: number }> = []
  const list = async (kinds: ExceptionKind[] | undefined, page: { offset: number; limit: number }) => {
    calls.push({ kinds, ...page })
    return { exceptions: moduleRows.slice(page.offset, page.offset + page.limit), count: moduleRows.length }
  }
  return { calls, list }
}

const messages = (r: { exceptions: ListedPayoutException[] }) => r.exceptions.map((e) => e.message)

describe("payout exceptions with chargebacks", () => {
  it("lists chargebacks first, then the module's, counted as one list", async () => {
    const { list } = moduleList()
    const first = await mergeExceptionPages(chargebacks, undefined, { offset: 0, limit: 4 }, list)
    expect(messages(first)).toEqual(["cb1", "cb2", "cb3", "m1"])
    expect(first.count).toBe(8)
    const second = await mergeExceptionPages(chargebacks, undefined, { offset: 4, limit: 4 }, list)
    expect(messages(second)).toEqual(["m2", "m3", "m4", "m5"])
  })

  it("a page of chargebacks only still counts the module's", async () => {
    const { list } = moduleList()
    const page = await mergeExceptionPages(chargebacks, undefined, { offset: 1, limit: 2 }, list)
    expect(messages(page)).toEqual(["cb2", "cb3"])
    expect(page.count).toBe(8)
  })

  it("filters by kind: chargebacks alone ask nothing of the module; other kinds pass through", async () => {
    const only = moduleList()
    const cb = await mergeExceptionPages(chargebacks, ["chargeback"], { offset: 0, limit: 50 }, only.list)
    expect(cb.count).toBe(3)
    expect(only.calls).toEqual([])
    const other = moduleList()
    const unfunded = await mergeExceptionPages([], ["unfunded"], { offset: 0, limit: 50 }, other.list)
    expect(unfunded.count).toBe(5)
    expect(other.calls[0].kinds).toEqual(["unfunded"])
  })
})
