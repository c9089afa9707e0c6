/**
 * The retired-session follow-up stores why it releases a reservation before releasing it, so a run
 * that stops between the release and the merchant's notice (the process died, or the release's
 * answer was lost while AltaPay could not be asked) still has the merchant told by the next run,
 * once, instead of dropping the note as "never paid".
 */
import { followUpStrandedSessions } from "../../../src/lib/follow-up/stranded-follow-up"
import { StrandedSessions } from "../../../src/lib/follow-up/stranded"
import { RunReport } from "../../../src/lib/follow-up/run-report"
import { startSandboxAndClient, type SandboxPair } from "../../helpers/sandbox"
import { fakeMedusa, minutes, registrationFor, reserveUnder, type FakeMedusa, type Graph } from "./harness"

let pair: SandboxPair
beforeAll(async () => (pair = await startSandboxAndClient()))
afterAll(async () => pair.close())
afterEach(() => pair.sandbox.faults.clear())

/** Medusa no longer has the session, no payment was made from it, the cart became no order. */
const medusaWithoutIt: Graph = async () => ({ data: [] })

async function run(fake: FakeMedusa, registration: ReturnType<typeof registrationFor>, at: Date): Promise<RunReport> {
  const report = new RunReport("test", { warn: () => undefined })
  await followUpStrandedSessions(fake.container, registration, at, report)
  return report
}

async function strandedPayment(sessionSuffix: string) {
  const registration = registrationFor(pair)
  const sessionId = `payses_01RELEASE${sessionSuffix}`
  const transactionId = await reserveUnder(pair, `payses-01RELEASE${sessionSuffix}`, 12_500)
  const t0 = new Date("2030-01-01T10:00:00Z")
  const stranded = new StrandedSessions(registration.store, registration.scaleOut.paymentLock, registration.options.providerId)
  await stranded.note({
    sessionId,
    shopOrderId: `payses-01RELEASE${sessionSuffix}`,
    cartId: "cart_gone",
    collectionId: "paycol_1",
    amountMinor: 12_500,
    currency: "DKK",
    why: "deleted",
    noted_at: t0.toISOString(),
  })
  const fake = fakeMedusa(medusaWithoutIt)
  // The first run after the grace period only sees the payment unused.
  await run(fake, registration, new Date(t0.getTime() + minutes(16)))
  return { registration, transactionId, t0, stranded, fake }
}

const releaseNotices = (fake: FakeMedusa, transactionId: string) => fake.notifications.filter((n) => n.data.description.includes(transactionId))

it("a release whose notice the process died before is told by the next run, once", async () => {
  const { registration, transactionId, t0, stranded, fake } = await strandedPayment("CRASHAAAA")
  fake.crashOnNextError = true
  expect((await run(fake, registration, new Date(t0.getTime() + minutes(32)))).counts()).toMatchObject({ failed: 1 })
  expect(pair.sandbox.transaction(transactionId)?.status).toMatch(/released/i)
  expect(releaseNotices(fake, transactionId)).toEqual([])

  for (let m = 48; m <= 6 * 60; m += 16) await run(fake, registration, new Date(t0.getTime() + minutes(m)))
  expect(releaseNotices(fake, transactionId)).toHaveLength(1)
  expect(releaseNotices(fake, transactionId)[0]!.data.description).toContain("Medusa deleted payment session")
  expect(await stranded.list(0, 10)).toEqual([])
})

it("a release whose answer was lost while AltaPay could not be asked is told once AltaPay answers again", async () => {
  const { registration, transactionId, t0, stranded, fake } = await strandedPayment("LOSTBBBBB")
  // The two look-ups before the release go through; the release is made, its answer lost; every look-up after fails.
  pair.sandbox.faults.add({ route: "releaseReservation", kind: "lost-answer" })
  pair.sandbox.faults.add({ route: /payments/, kind: "503", skip: 2, times: Infinity })
  expect((await run(fake, registration, new Date(t0.getTime() + minutes(32)))).stopped).toBe(true)
  pair.sandbox.faults.clear()
  expect(pair.sandbox.transaction(transactionId)?.status).toMatch(/released/i)

  for (let m = 48; m <= 6 * 60; m += 16) await run(fake, registration, new Date(t0.getTime() + minutes(m)))
  expect(releaseNotices(fake, transactionId)).toHaveLength(1)
  expect(await stranded.list(0, 10)).toEqual([])
})
