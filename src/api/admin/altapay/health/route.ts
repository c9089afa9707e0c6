/**
 * GET /admin/altapay/health
 *
 * The admin's AltaPay page: per registration its set-up (gateway, terminals, URLs, which secrets are
 * set: never their values) and the posts AltaPay sent (the last one and how late, those refused in
 * the last day); the follow-up jobs' last runs; money attempts still uncertain and reservations
 * about to expire, with their orders; open payout exceptions. What AltaPay itself answers is the check's (./[provider]/check).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { healthOf } from "../../../../lib/health/hooks"
import type { AdminAltaPayHealthResponse } from "../../../../lib/health/views"
import { altapayRegistrations } from "../../../../lib/registrations/registrations"
import { expiringReservations } from "../_lib/expiring-reservations"
import { openPayoutExceptions, registrationHealth, uncertainAttempts } from "../_lib/health"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminAltaPayHealthResponse>) => {
  const registrations = altapayRegistrations(req.scope)
  const [views, jobs, uncertain, expiring, payoutExceptions] = await Promise.all([
    Promise.all(registrations.map(registrationHealth)),
    healthOf(req.scope).jobs(),
    uncertainAttempts(req.scope, registrations),
    expiringReservations(req.scope, registrations),
    openPayoutExceptions(req.scope),
  ])
  res.setHeader("Cache-Control", "no-store")
  res.json({ registrations: views, jobs, uncertain, expiring, payoutExceptions })
}
