/**
 * Keys only this store's servers know, derived (HKDF-SHA256) from `paymentDataSecret` when set,
 * else from the AltaPay API credentials. One key per purpose, so a key used to seal payment data
 * never also stamps webhook arrivals. Every server with the same options derives the same keys.
 */
import { hkdfSync } from "node:crypto"
import type { AltaPayOptions } from "./options"

export type KeyPurpose = "payment-data-seal" | "webhook-arrival"

export interface ServerKeys {
  /** Signs what is written now. */
  primary: Buffer
  /** Verifies: the primary key, and the credentials-derived key while `paymentDataSecret` is being introduced. */
  accepted: Buffer[]
}

type KeyOptions = Pick<AltaPayOptions, "username" | "password" | "paymentDataSecret">

const SALT = "medusa-payment-altapay"

export function serverKeys(options: KeyOptions, purpose: KeyPurpose): ServerKeys {
  const fromCredentials = derive(`${options.username}\u0000${options.password}`, purpose)
  if (!options.paymentDataSecret) return { primary: fromCredentials, accepted: [fromCredentials] }
  const primary = derive(options.paymentDataSecret, purpose)
  return { primary, accepted: [primary, fromCredentials] }
}

function derive(material: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", material, SALT, `${purpose} v1`, 32))
}
