/**
 * The seal over payment data is stored in merchants' databases: a change to how it is computed
 * must leave every seal already written verifying, or paid payments could not be captured or
 * refunded without a live confirmation. And the journal must hand out only copies it can prove.
 */
import fc from "fast-check"
import { z } from "zod"
import { canonicalJson, freshPaymentData, openPaymentData, paymentDataSchema, schemaFingerprint, sealPaymentData, type AltaPayPaymentData } from "../../src/lib/payment-data/data"
import { STORED_ORDER } from "../../src/lib/payment-data/canonical-json"
import { fingerprintOf } from "../../src/lib/payment-data/seal-format"
import { PaymentJournal } from "../../src/lib/payment-data/journal"
import type { SharedStore } from "../../src/lib/scale-out/shared-state"
import { createHmac, hkdfSync } from "node:crypto"

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
/** Version 1's seal of goldenData, computed by the implementation before canonicalJson was rewritten (Object.entries, filter, sort, map). */
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

/** Every object's keys as Postgres's jsonb returns them (shorter first): Medusa's copy, read back from its database. */
const storedKeys = (value: unknown): unknown => withKeys(value, (keys) => keys.sort((a, b) => (STORED_ORDER(a, b) ? -1 : 1)))

/** Sealed data as it comes back from a database (JSON, keys in another order). */
const asStored = (value: unknown, order: (v: unknown) => unknown = storedKeys) => order(JSON.parse(JSON.stringify(value))) as Record<string, unknown>

/** A version 2 seal as a server whose schema had fingerprint `schema` would write it (the domain sealPaymentData documents). */
function sealedUnder(schema: string, fields: Record<string, unknown>): Record<string, unknown> {
  const text = canonicalJson(fields, STORED_ORDER)
  const mac = createHmac("sha256", goldenKey).update(`medusa-payment-altapay payment data v2 ${schema}\n`).update(text).digest("base64url")
  return { ...fields, altapay_seal: `v2.${schema}.${mac}` }
}

describe("payment data seal", () => {
  it("opens seals version 1 wrote, so data already in merchants' databases keeps verifying", () => {
    // As version 1 stored it: with the flag its seal writes.
    const stored = asStored({ ...goldenData, awaiting_altapay: false, altapay_seal: GOLDEN_SEAL }, reversedKeys)
    expect(openPaymentData(stored, keys)).toEqual({ sealed: true, data: expect.objectContaining({ order_id: "payses_01GOLDEN", revision: 3 }) })
    expect(openPaymentData({ ...stored, amount_minor: 44901 }, keys)).toMatchObject({ sealed: false })
  })

  it("opens a version 1 seal over a fraud record, which 0.3.0 sorted while encoding", () => {
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
    const data = { ...goldenData, captured_minor: null, refunds: [], captures: [], reconciled: undefined, revision: 1, fraud, awaiting_altapay: false }
    // Computed by 0.3.0.
    const stored = asStored({ ...data, altapay_seal: "v1.bj6hKCOET0Na3GaxZhPg15XCeHG7ICKMQ0ulUqUcEdg" })
    expect(openPaymentData(stored, keys)).toMatchObject({ sealed: true, data: { fraud: { decision: "hold" } } })
  })

  it("opens Medusa's copy as its database returns it, with a browser's keys beside, and only the provider's fields", () => {
    const sealed = sealPaymentData(goldenData, keys)
    expect(sealed.altapay_seal).toMatch(new RegExp(`^v2\\.${schemaFingerprint()}\\.`))
    const own = paymentDataSchema.parse(goldenData)
    for (const order of [storedKeys, reversedKeys, sortedKeys]) {
      const opened = openPaymentData({ ...asStored(sealed, order), shipping_hint: "browser" }, keys)
      expect(opened).toEqual({ sealed: true, data: { ...own, awaiting_altapay: false } })
    }
  })

  it("proves data sealed under another schema (another version of the plugin), then reads it with this one", () => {
    // Written before `revision` existed: the seal holds, and this schema's default fills it in.
    const { revision: _revision, ...older } = JSON.parse(JSON.stringify(paymentDataSchema.parse(goldenData))) as Record<string, unknown>
    expect(openPaymentData(asStored(sealedUnder("an-older-schema", older)), keys)).toEqual({
      sealed: true,
      data: expect.objectContaining({ revision: 0, order_id: "payses_01GOLDEN" }),
    })
    // Proven, but not data this schema reads: never used as if it were.
    const unreadable = sealedUnder("an-older-schema", { ...older, amount_minor: "449.00" })
    expect(openPaymentData(unreadable, keys)).toMatchObject({ sealed: false })
    // A seal naming this schema over what this schema would refuse is no seal the provider wrote.
    expect(openPaymentData(sealedUnder("forged", older), { primary: Buffer.alloc(32), accepted: [Buffer.alloc(32)] })).toMatchObject({ sealed: false })
  })

  it("names the schema by its fields, types and bounds", () => {
    expect(fingerprintOf(paymentDataSchema.extend({ note: z.string().optional() }))).not.toBe(fingerprintOf(paymentDataSchema))
    expect(fingerprintOf(paymentDataSchema.extend({ amount_minor: z.number().int().nonnegative() }))).not.toBe(fingerprintOf(paymentDataSchema))
    expect(fingerprintOf(paymentDataSchema)).toBe(schemaFingerprint())
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
        const stored = canonicalJson(value, STORED_ORDER)
        expect(canonicalJson(reversedKeys(value), STORED_ORDER)).toBe(stored)
        expect(canonicalJson(storedKeys(value), STORED_ORDER)).toBe(stored)
        expect(JSON.parse(stored)).toEqual(JSON.parse(text))
        // Same content as JSON.stringify (nothing undefined in fc.jsonValue).
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
      })
    )
    expect(canonicalJson({ b: [1, undefined, { z: null, a: "x" }], a: undefined, é: 1, A: true })).toBe('{"A":true,"b":[1,null,{"a":"x","z":null}],"é":1}')
    expect(canonicalJson({ bb: 1, a: { zz: 2, y: 3 }, c: undefined }, STORED_ORDER)).toBe('{"a":{"y":3,"zz":2},"bb":1}')
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
