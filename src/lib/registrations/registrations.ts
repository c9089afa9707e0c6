/**
 * Every AltaPay registration of the Payment module (a store may register the provider once per
 * terminal: pp_altapay_card, pp_altapay_mobilepay), each with what acting on its payments outside
 * the provider needs: its options, the shared client, its seal keys and the provider's cache and
 * locks (the same instances the provider gets).
 */
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { AltaPayClient } from "../../altapay"
import { altapayProviderId, findAltaPayProviderEntries, parsedFor, providerScaleOut } from "./from-config"
import type { AltaPayOptions } from "./options"
import { dataAccessFor, type PaymentDataAccess } from "../payment-data/writer"
import { processStore, type ScaleOut, type SharedStore } from "../scale-out/shared-state"
import { serverKeys, type ServerKeys } from "./server-keys"
import { sharedAltaPayClient } from "./shared-client"

export interface AltaPayRegistration {
  /** Medusa's payment provider id, e.g. pp_altapay_card. */
  providerId: string
  options: AltaPayOptions
  client: AltaPayClient
  scaleOut: ScaleOut
  /** Medusa's cache module when the Payment module has one, else this process's store. */
  store: SharedStore
  keys: ServerKeys
}

/** The registrations whose options are valid (the provider refuses to start with the others). */
export function altapayRegistrations(scope: MedusaContainer): AltaPayRegistration[] {
  const entries = findAltaPayProviderEntries(scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE))
  if (entries.length === 0) return []
  const scaleOut = providerScaleOut(scope)
  return entries.flatMap((entry) => {
    const parsed = parsedFor(entry)
    if ("problems" in parsed) return []
    const options = parsed.options
    return [
      {
        providerId: altapayProviderId(entry),
        options,
        client: sharedAltaPayClient(options, undefined, scaleOut),
        scaleOut,
        store: scaleOut.store ?? processStore(),
        keys: serverKeys(options, "payment-data-seal"),
      },
    ]
  })
}

/** Reading and changing this registration's payment data the way its provider does (../payment-data/writer.ts). */
export function registrationDataAccess(registration: AltaPayRegistration): PaymentDataAccess {
  return dataAccessFor(registration.options, registration.client, registration.scaleOut)
}
