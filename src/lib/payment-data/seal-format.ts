/**
 * The seal's wire format and MAC (data.ts decides what is sealed and when a seal is trusted).
 * Version 1, `v1.<mac>`: the MAC of the fields in code unit order. Version 2,
 * `v2.<schema>.<mac>`: the MAC of the fields in STORED_ORDER and of the fingerprint of the
 * schema that parsed them before they were sealed.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { z } from "zod"
import type { ServerKeys } from "../registrations/server-keys"

export interface Seal {
  version: 1 | 2
  /** The MAC's domain: what it is a MAC of, besides the text. */
  domain: string
  /** Version 2: the fingerprint of the schema that parsed the sealed fields. */
  schema?: string
  given: Buffer
}

const V1_DOMAIN = "medusa-payment-altapay payment data v1\n"
const v2Domain = (schema: string) => `medusa-payment-altapay payment data v2 ${schema}\n`

export function readSeal(value: unknown): Seal | undefined {
  if (typeof value !== "string") return undefined
  if (value.startsWith("v1.")) return { version: 1, domain: V1_DOMAIN, given: Buffer.from(value.slice(3), "base64url") }
  const parts = value.split(".")
  if (parts.length !== 3 || parts[0] !== "v2") return undefined
  return { version: 2, domain: v2Domain(parts[1]), schema: parts[1], given: Buffer.from(parts[2], "base64url") }
}

/** A version 2 seal of `canonicalText`, checked by the schema named `schema`, with the store's primary key. */
export function sealOf(keys: ServerKeys, schema: string, canonicalText: string): string {
  return `v2.${schema}.${mac(keys.primary, v2Domain(schema), canonicalText).toString("base64url")}`
}

/** Whether the seal is a MAC of `text` under a key this store accepts (the text encoded once for them all: it is most of a check's cost). */
export function verifies(keys: ServerKeys, seal: Seal, text: string): boolean {
  return keys.accepted.some((key) => {
    const expected = mac(key, seal.domain, text)
    return expected.length === seal.given.length && timingSafeEqual(expected, seal.given)
  })
}

function mac(key: Buffer, domain: string, canonicalText: string): Buffer {
  return createHmac("sha256", key).update(domain).update(canonicalText).digest()
}

const fingerprints = new WeakMap<z.ZodType, string>()

/**
 * Names a schema: a hash of its JSON Schema, so that it changes with any field, type or bound,
 * and a seal made under another schema is parsed again before it is used.
 */
export function fingerprintOf(schema: z.ZodType): string {
  let fingerprint = fingerprints.get(schema)
  if (fingerprint === undefined) {
    const described = JSON.stringify(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }))
    fingerprint = createHash("sha256").update(described).digest("base64url").slice(0, 16)
    fingerprints.set(schema, fingerprint)
  }
  return fingerprint
}

/** The JSON of objects sealPaymentData returned, by object (an object changed after sealing is a new one). */
const sealedTexts = new WeakMap<object, string>()

export function keepSealedText(sealed: object, json: string): void {
  sealedTexts.set(sealed, json)
}

/**
 * JSON of sealed data, for a cache that stores text: the encoding sealing made, when `sealed` is
 * what sealPaymentData returned, without encoding it again; otherwise JSON.stringify.
 */
export function sealedJson(sealed: object): string {
  return sealedTexts.get(sealed) ?? JSON.stringify(sealed)
}
