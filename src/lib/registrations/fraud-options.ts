/**
 * The `fraud` option: what the provider does with AltaPay's fraud recommendation and AVS result
 * ("Using fraud detection": on Deny "you are recommended to release or refund the payment"; on
 * Challenge "you should review the order manually before making a decision"). AltaPay enables the
 * fraud service per terminal; without it a payment carries no recommendation and nothing here acts.
 */
import { z } from "zod"

/** What an AVS result outside `acceptedCodes` (or none at all) counts as. */
const avsOutcome = z.enum(["accept", "challenge", "deny"])

export const fraudOptionsSchema = z
  .object({
    /** release: the reservation is released and the payment is not authorized; accept: the order is placed as any other. */
    deny: z.enum(["release", "accept"]).default("release"),
    /** hold: the order is placed but nothing is captured until the merchant approves it; accept: no hold. */
    challenge: z.enum(["hold", "accept"]).default("hold"),
    /**
     * AVS (the card scheme's address check, AltaPay's AddressVerification): the codes that count as a
     * match, as Magento's "AVS Accepted Codes" (plugin-magento2-community etc/adminhtml/system/terminal*.xml).
     * Unset: AVS is shown, never acted on.
     */
    avs: z
      .object({
        acceptedCodes: z.array(z.string().regex(/^[A-Za-z]$/, "must be one-letter AVS codes such as Y, X, D, M, P")).min(1),
        /** A code outside acceptedCodes counts as this recommendation. */
        onMismatch: avsOutcome.default("challenge"),
        /** No AVS result at all (Magento's "Enforce AVS" rejects those): counts as this recommendation. */
        onMissing: avsOutcome.default("accept"),
      })
      .strict()
      .optional(),
  })
  .strict()

export type FraudOptions = z.output<typeof fraudOptionsSchema>
export const DEFAULT_FRAUD_OPTIONS: FraudOptions = fraudOptionsSchema.parse({})
