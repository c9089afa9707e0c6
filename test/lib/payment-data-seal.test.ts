/**
 * The seal over payment data is stored in merchants' databases: a change to how it is computed
 * must leave every seal already written verifying, or paid payments could not be captured or
 * refunded without a live confirmation. And the journal must hand out only copies it can prove.
 */
import fc from "fast-check"
import { canonicalJson, freshPaymentData, openPaymentData, sealPaymentData, type AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { PaymentJournal } from "../../src/lib/payment-data/journal"
import type { SharedStore } from "../../src/lib/scale-out/shared-state"
import { hkdfSync } from "node:crypto"

// The key as version 1 derived it (HKDF of the credentials): pins the seal's byte encoding for a
// given key, whatever derives keys now (server-keys.test.ts).
const goldenKey = Buffer.from(hkdfSync("sha256", "golden-user\u0000golden-password", "medusa-payment-altapay", "payment-data-seal v1", 32))
const keys = { primary: goldenKey, accepted: [goldenKey] }

/** A paid payment with one capture and one refund, as written before canonicalJson was rewritten. */
const goldenData: AltaPayPaymentData = {
  ...freshPaymentData({
    altapay_session_id: "ses_ø1",
    order_id: "payses_01GOLDEN",
    amount_minor: 44900,
    currency: "DKK",
    terminal: "Shop DKK",
    auto_capture: false,
    order_lines: [{ description: 'Tee "Ærø" <b>', itemId: "item_1", quantity: 2, unitPriceMinor: 17960, taxAmountMinor: 4490, taxPercent: 25, goodsType: "item" }],
    order_lines_source: "query",
  }),
  transaction_id: "123456",
  captured_minor: 44900,
  refunds: [
    {
      refund_id: "ref_1",
      reconciliation_identifier: "medusa-refund-ref_1",
      amount_minor: 100,
      medusa_amount: "1",
      status: "succeeded",
      created_at: "2026-11-23T10:00:00.000Z",
      items: [{ line_item_id: "li_1", quantity: 1 }],
    },
  ],
  captures: [{ capture_id: "capt_1", reconciliation_identifier: "medusa-capture-capt_1", amount_minor: 44900, created_at: "2026-11-23T09:00:00.000Z" }],
  reconciled: { at: "2026-11-23T09:30:00.000Z", by: "callback" },
  revision: 3,
}
/** Computed by the previous implementation (Object.entries, filter, sort, map). */
const GOLDEN_SEAL = "v1.G6z17WqlwI7Ud34e8Y0yJKDo_fE1vtqK1q0c9Rz6YPk"

/** The same JSON with every object's keys put in the order `order` gives them. */
function withKeys(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => withKeys(item, order))
  if (value === null || typeof value !== "object") return value
  const record = value as Record<string, unknown>
  return Object.fromEntries(order(Object.keys(record)).map((k) => [k, withKeys(record[k], order)]))
}

/** Every object's keys in reverse order, as a jsonb round trip may return them. */
const reversedKeys = (value: unknown): unknown => withKeys(value, (keys) => keys.reverse())

/** Every object's keys in code unit order (what canonicalJson writes with JSON.stringify). */
const sortedKeys = (value: unknown): unknown => withKeys(value, (keys) => keys.sort())

describe("payment data seal", () => {
  it("seals as it always did, so seals already in merchants' databases keep verifying", () => {
    const sealed = sealPaymentData(goldenData, keys)
    expect(sealed.altapay_seal).toBe(GOLDEN_SEAL)
    const stored = reversedKeys(JSON.parse(JSON.stringify(sealed))) as Record<string, unknown>
    expect(openPaymentData(stored, keys)).toEqual({ sealed: true, data: expect.objectContaining({ order_id: "payses_01GOLDEN", revision: 3 }) })
  })

  it("seals a fraud record as it did when its fields were not in canonical order", () => {
    const fraud = {
      recommendation: "Challenge",
      score: "45",
      explanation: "Risk score 45",
      avs_code: "S",
      avs_text: "AVS not supported",
      decision: "hold" as const,
      reasons: ["AltaPay recommends a challenge"],
      approved_at: null,
      approved_by: null,
    }
    const data = { ...goldenData, captured_minor: null, refunds: [], captures: [], reconciled: undefined, revision: 1, fraud }
    // Computed by 0.3.0, which sorted the fraud record's keys while encoding.
    expect(sealPaymentData(data, keys).altapay_seal).toBe("v1.bj6hKCOET0Na3GaxZhPg15XCeHG7ICKMQ0ulUqUcEdg")
  })

  it("refuses the golden data once a refund amount is changed", () => {
    const sealed = sealPaymentData(goldenData, keys)
    const changed = { ...sealed, refunds: [{ ...sealed.refunds[0], amount_minor: 10000 }] }
    expect(openPaymentData(changed, keys)).toMatchObject({ sealed: false })
  })

  it("encodes any JSON value the same whatever its key order, with keys sorted and undefined members left out", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value)
        expect(canonicalJson(reversedKeys(value))).toBe(text)
        expect(canonicalJson(sortedKeys(value))).toBe(text)
        // Same content as JSON.stringify (nothing undefined in fc.jsonValue).
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
      })
    )
    expect(canonicalJson({ b: [1, undefined, { z: null, a: "x" }], a: undefined, é: 1, A: true })).toBe('{"A":true,"b":[1,null,{"a":"x","z":null}],"é":1}')
    // Already in order, with what JSON.stringify would write otherwise: a member left undefined, a Date.
    expect(canonicalJson({ A: true, a: undefined, b: [1, undefined, { a: "x", z: null }], d: new Date(0), é: 1 })).toBe('{"A":true,"b":[1,null,{"a":"x","z":null}],"d":{},"é":1}')
  })
})

describe("payment journal", () => {
  const memoryStore = (): SharedStore & { values: Map<string, unknown> } => {
    const values = new Map<string, unknown>()
    return { values, get: async <T>(k: string) => values.get(k) as T | undefined, set: async (k, v) => void values.set(k, v), delete: async (k) => void values.delete(k) }
  }

  it("hands out the journal's copy only when it is newer and its seal verifies", async () => {
    const store = memoryStore()
    const journal = new PaymentJournal(keys, store)
    const medusaCopy = { ...goldenData, revision: 3 }
    const newer = sealPaymentData({ ...goldenData, refunded_minor: 100, revision: 4 }, keys)
    await journal.write("123456", newer)
    expect((await journal.newest("123456", medusaCopy)).revision).toBe(4)

    await journal.write("123456", { ...newer, refunded_minor: 0 }) // changed after sealing
    expect(await journal.newest("123456", medusaCopy)).toBe(medusaCopy)

    await journal.write("123456", sealPaymentData({ ...goldenData, revision: 2 }, keys)) // older
    expect(await journal.newest("123456", medusaCopy)).toBe(medusaCopy)
  })

  it("reads entries written as the data itself (0.3.0) and refuses a changed or broken text", async () => {
    const store = memoryStore()
    const journal = new PaymentJournal(keys, store)
    const medusaCopy = { ...goldenData, revision: 3 }
    const newer = sealPaymentData({ ...goldenData, refunded_minor: 100, revision: 4 }, keys)
    store.values.set("altapay:payment-data:123456", JSON.parse(JSON.stringify(newer)))
    expect(await journal.newest("123456", medusaCopy)).toMatchObject({ revision: 4, refunded_minor: 100 })

    await journal.write("123456", newer)
    const entry = store.values.get("altapay:payment-data:123456") as { revision: number; json: string }
    expect(JSON.parse(entry.json)).toEqual(JSON.parse(JSON.stringify(newer)))
    store.values.set("altapay:payment-data:123456", { ...entry, json: entry.json.replace('"refunded_minor":100', '"refunded_minor":0') })
    expect(await journal.newest("123456", medusaCopy)).toBe(medusaCopy)
    store.values.set("altapay:payment-data:123456", { ...entry, json: entry.json.slice(0, -1) })
    expect(await journal.newest("123456", medusaCopy)).toBe(medusaCopy)
  })
})
