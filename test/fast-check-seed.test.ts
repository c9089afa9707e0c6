/** Every property test in a run draws from the seed the run printed, so CI's log can replay a failure. */
import fc from "fast-check"

test("the run's printed seed is fast-check's global seed", () => {
  expect(process.env.FC_SEED).toMatch(/^-?\d+$/)
  expect(fc.readConfigureGlobal().seed).toBe(Number(process.env.FC_SEED))
})
