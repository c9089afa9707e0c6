/** A store without the payouts module (an old install): the job says so once and does nothing. */
import altapayPayoutsJob, { config } from "../../../src/jobs/altapay-payouts"

it("logs once that the payouts module is missing and imports nothing", async () => {
  const warn = jest.fn()
  const container = { hasRegistration: () => false, resolve: () => ({ warn, info: jest.fn() }) }
  expect(await altapayPayoutsJob(container as never)).toBeUndefined()
  expect(await altapayPayoutsJob(container as never)).toBeUndefined()
  expect(warn).toHaveBeenCalledTimes(1)
  expect(warn.mock.calls[0][0]).toMatch(/payouts module is not registered/)
  expect(config).toEqual({ name: "altapay-payouts", schedule: { interval: 60 * 60_000 } })
})
