/** The savedCards option: off unless the merchant turns it on, and a bad value named at start-up. */
import { parseAltaPayOptions } from "../../../src/lib/registrations/options"
import { MINIMAL_OPTIONS } from "../../helpers/options"

it("is off for a store that sets nothing", () => {
  const parsed = parseAltaPayOptions(MINIMAL_OPTIONS)
  expect("options" in parsed && parsed.options.savedCards).toEqual({ enabled: false })
})

it("is on when enabled", () => {
  const parsed = parseAltaPayOptions({ ...MINIMAL_OPTIONS, savedCards: { enabled: true } })
  expect("options" in parsed && parsed.options.savedCards).toEqual({ enabled: true })
})

it("names a bad value and an unknown key", () => {
  const parsed = parseAltaPayOptions({ ...MINIMAL_OPTIONS, savedCards: { enabled: "yes", tokens: true } })
  const problems = "problems" in parsed ? parsed.problems.join("\n") : ""
  expect(problems).toContain("savedCards.enabled")
  expect(problems).toContain("tokens")
})
