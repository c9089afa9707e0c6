/**
 * GET /admin/altapay/providers
 *
 * This store's AltaPay registrations (one per AltaPay terminal, e.g. pp_altapay_card and
 * pp_altapay_mobilepay), for the admin to choose which one a payment link pays with. Only ids and
 * terminal names: no URL, user or secret leaves the server.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { altapayOptionsFromConfig, altapayProviderIds } from "../../../../lib/registrations/from-config"

export interface AdminAltaPayProvider {
  /** Medusa's provider id, pp_altapay_<id>. */
  id: string
  /** The default terminal, and terminals per currency (ISO 4217 -> name). */
  terminal: string | null
  terminals: Record<string, string> | null
}

export interface AdminAltaPayProvidersResponse {
  providers: AdminAltaPayProvider[]
}

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayProvidersResponse>) => {
  const providers = altapayProviderIds(req.scope).map((id): AdminAltaPayProvider => {
    const { options } = altapayOptionsFromConfig(req.scope, id)
    return { id, terminal: options.terminal ?? null, terminals: options.terminals ?? null }
  })
  res.json({ providers })
}
