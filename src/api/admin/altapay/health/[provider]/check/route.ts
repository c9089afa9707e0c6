/**
 * GET /admin/altapay/health/:provider/check
 *
 * `altapay-check` for one registration, live: its options as the command checks them (production
 * rules when NODE_ENV is production, as the store starts), a MERCHANT token, the API user's terminals
 * with their currencies and payment natures, the funding files when payouts are on. Nothing is
 * created at AltaPay. The API user's name is left out of the lines; no secret is in them.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { checkOptions } from "../../../../../../check/checks"
import { namedTerminals } from "../../../../../../check/terminals"
import type { AdminAltaPayCheckResponse } from "../../../../../../lib/health/views"
import { altapayRegistrations } from "../../../../../../lib/registrations/registrations"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayCheckResponse>) => {
  const providerId = (req.params as { provider: string }).provider
  const registration = altapayRegistrations(req.scope).find((r) => r.providerId === providerId)
  if (!registration) throw new MedusaError(MedusaError.Types.NOT_FOUND, `${providerId} is not an AltaPay registration of this store whose options are valid.`)
  const { options } = registration
  const { findings, terminals, credentialsRefused } = await checkOptions(options, { production: process.env.NODE_ENV === "production" })
  const named = namedTerminals(options)
  const redact = (text: string) => text.split(options.username).join("(the API user)")
  res.setHeader("Cache-Control", "no-store")
  res.json({
    providerId,
    checkedAt: new Date().toISOString(),
    credentials: terminals ? "accepted" : credentialsRefused ? "refused" : "unknown",
    terminals: (terminals ?? []).map((t) => ({
      title: t.title,
      currencies: t.currencies,
      natures: t.natures,
      namedBy: named.filter((n) => n.title === t.title).map((n) => n.option),
    })),
    lines: findings.map(([status, text]) => ({ status, text: redact(text) })),
  })
}
