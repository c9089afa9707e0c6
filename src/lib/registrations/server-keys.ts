/**
 * Keys only this store's servers know, one per purpose (a key that seals payment data never also
 * stamps webhook arrivals), derived once per registration when the provider starts and kept.
 *
 * - With `paymentDataSecret`: HKDF-SHA256 of the secret (at least 32 characters of key material).
 *   Required unless the registration talks to a local sandbox (options.ts, localSandbox): every
 *   customer sees their own sealed data in Medusa's store cart response, so a key from the API
 *   password, however slow, is something to test password guesses against offline.
 * - Without (a local sandbox): scrypt (N=2^15, r=8, p=1: 32 MiB and about 0.1 s per guess) of the
 *   API username and password, then HKDF per purpose.
 *
 * The salt names the registration (`providerId`) and, for the credentials-derived key, the store
 * (the host name of `backendUrl`): stores and registrations sharing an API user never share a key,
 * while the servers of one store (each perhaps with its own port) do.
 *
 * Once a secret is set, the credentials-derived key still verifies (never signs): data sealed
 * before the secret (sessions in flight, payments) stays trusted without a live read. That keeps
 * no oracle open that was not open already: nothing new is sealed with it, and whoever could
 * forge with it has guessed the API password, which already gives them AltaPay's API. Changing the
 * API password ends it (the key follows the current password). `previousPaymentDataSecrets` keep
 * seals of earlier secrets verifying during a rotation.
 */
import { createHash, hkdfSync, scryptSync } from "node:crypto"
import type { AltaPayOptions } from "./options"

export type KeyPurpose = "payment-data-seal" | "webhook-arrival"

export interface ServerKeys {
  /** Signs what is written now. */
  primary: Buffer
  /**
   * Verifies: the primary key, then the keys of previousPaymentDataSecrets, then (with a secret)
   * the key derived from the API credentials, which sealed everything before the secret was set.
   */
  accepted: Buffer[]
}

export type KeyOptions = Pick<AltaPayOptions, "username" | "password" | "paymentDataSecret" | "providerId" | "backendUrl"> &
  Partial<Pick<AltaPayOptions, "previousPaymentDataSecrets">>

/** scrypt cost: 2^15 x 128 x 8 bytes = 32 MiB of memory per derivation. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const SALT = "medusa-payment-altapay"

/** Derived master keys by a hash of what they were derived from: the slow derivation runs once per process and registration. */
const masters = new Map<string, Buffer>()
const MAX_MASTERS = 64

export function serverKeys(options: KeyOptions, purpose: KeyPurpose): ServerKeys {
  const registration = `${SALT}:${options.providerId ?? "altapay"}`
  if (!options.paymentDataSecret) {
    const primary = derive(credentialsMaster(options), registration, purpose)
    return { primary, accepted: [primary] }
  }
  const primary = derive(options.paymentDataSecret, registration, purpose)
  const previous = (options.previousPaymentDataSecrets ?? []).map((secret) => derive(secret, registration, purpose))
  const beforeSecret = derive(credentialsMaster(options), registration, purpose)
  return { primary, accepted: [primary, ...previous, beforeSecret] }
}

function credentialsMaster(options: KeyOptions): Buffer {
  const salt = `${SALT}:${options.providerId ?? "altapay"}:${storeHost(options.backendUrl)}`
  const material = `${options.username}\u0000${options.password}`
  const id = createHash("sha256").update(salt).update("\u0000").update(material).digest("hex")
  let master = masters.get(id)
  if (!master) {
    master = scryptSync(material, salt, 32, SCRYPT)
    // A process has a few registrations; a bound keeps one that builds options on the fly from growing.
    if (masters.size >= MAX_MASTERS) masters.delete(masters.keys().next().value as string)
    masters.set(id, master)
  }
  return master
}

/**
 * The store's host name: the same on every server of a store (which may each have their own
 * backendUrl port or scheme behind a balancer), different between stores on their own domains.
 */
function storeHost(backendUrl: string | undefined): string {
  try {
    return new URL(backendUrl ?? "").hostname.toLowerCase()
  } catch {
    return ""
  }
}

function derive(material: string | Buffer, salt: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", material, salt, `${purpose} v1`, 32))
}
