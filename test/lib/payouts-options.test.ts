/** The payouts option: what a store that never sets it gets, and every bad value named at start-up. */
import { parseAltaPayOptions } from "../../src/lib/registrations/options"
import { MINIMAL_OPTIONS } from "../helpers/options"

const base = MINIMAL_OPTIONS

it("a store that sets nothing imports its payouts every hour and lists captures unfunded after 14 days", () => {
  const parsed = parseAltaPayOptions(base)
  expect("options" in parsed && parsed.options.payouts).toEqual({ enabled: true, intervalMinutes: 60, unfundedAfterDays: 14 })
})

it("keeps the defaults of what is not given", () => {
  const parsed = parseAltaPayOptions({ ...base, payouts: { enabled: false } })
  expect("options" in parsed && parsed.options.payouts).toEqual({ enabled: false, intervalMinutes: 60, unfundedAfterDays: 14 })
})

it("names every bad payouts option, an unknown one too", () => {
  const parsed = parseAltaPayOptions({ ...base, payouts: { enabled: "yes", intervalMinutes: 1, unfundedAfterDays: 400, every: 3 } })
  const problems = "problems" in parsed ? parsed.problems.join("\n") : ""
  for (const field of ["payouts.enabled", "payouts.intervalMinutes", "payouts.unfundedAfterDays", "every"]) expect(problems).toContain(field)
  expect(parseAltaPayOptions({ ...base, payouts: { intervalMinutes: 1441 } })).toHaveProperty("problems")
  expect(parseAltaPayOptions({ ...base, payouts: { unfundedAfterDays: 0 } })).toHaveProperty("problems")
  expect(parseAltaPayOptions({ ...base, payouts: { intervalMinutes: 5, unfundedAfterDays: 365 } })).toHaveProperty("options")
})
