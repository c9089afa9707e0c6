/** The follow-up job's notes of retired payment sessions, for tests that run the job (tests of the store's routes). */
import type { MedusaContainer } from "@medusajs/framework/types"
import { StrandedSessions } from "../../src/lib/follow-up/stranded"
import { altapayRegistrations } from "../../src/lib/registrations/registrations"

/**
 * Forgets every registration's notes. The runner restores the database before each test, not
 * Medusa's cache, where the notes live: a session an earlier test retired would be followed again.
 */
export async function forgetStrandedNotes(container: MedusaContainer): Promise<void> {
  for (const registration of altapayRegistrations(container)) {
    const notes = new StrandedSessions(registration.store, registration.scaleOut.paymentLock, registration.options.providerId)
    for (const id of await notes.list(0, 10_000)) await notes.forget(id)
  }
}
