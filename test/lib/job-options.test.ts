/** The follow-up jobs' options: defaults a store that never sets them can rely on, and every bad value named at start-up. */
import { parseAltaPayOptions } from "../../src/lib/registrations/options"
import { MINIMAL_OPTIONS } from "../helpers/options"

const base = MINIMAL_OPTIONS

it("a store that sets nothing gets a 5-minute interval, 15 minutes' grace, batches of 50, a 24-hour session lifetime, retries backing off to 6 hours with the merchant told after 5, 72 hours for Open results, and notice of reservations expiring within 2 days", () => {
  const parsed = parseAltaPayOptions(base)
  expect("options" in parsed && parsed.options.jobs).toEqual({
    intervalMinutes: 5,
    graceMinutes: 15,
    batchSize: 50,
    sessionLifetimeMinutes: 1440,
    retryMaxMinutes: 360,
    maxAttempts: 5,
    openResultTimeoutHours: 72,
    expiryNoticeDays: 2,
  })
})

it("names every bad job option, and keeps the defaults of those not given", () => {
  const parsed = parseAltaPayOptions({ ...base, jobs: { intervalMinutes: 0, graceMinutes: -1, batchSize: 1.5, every: 3 } })
  const problems = "problems" in parsed ? parsed.problems.join("\n") : ""
  for (const field of ["jobs.intervalMinutes", "jobs.graceMinutes", "jobs.batchSize", "every"]) expect(problems).toContain(field)
  const partial = parseAltaPayOptions({ ...base, jobs: { graceMinutes: 30 } })
  expect("options" in partial && partial.options.jobs).toMatchObject({ graceMinutes: 30, intervalMinutes: 5 })
})

it("refuses no grace at all: the two runs that must both find a reservation unused before it is released would be one", () => {
  const parsed = parseAltaPayOptions({ ...base, jobs: { graceMinutes: 0 } })
  expect("problems" in parsed && parsed.problems.join("\n")).toMatch(/jobs\.graceMinutes.*at least 1: a reservation is released only when two runs/)
})
