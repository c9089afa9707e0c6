/** A store without the payouts module (an old install): the job says so once and does nothing. */
import altapayPayoutsJob, { config } from "../../../src/jobs/altapay-payouts"

it("logs once that the payouts module is missing and imports nothing", async () => {
  const warn = jest.fn()
  // As Medusa's container: the logger is there, an unregistered module is undefined when allowed.
  const logger = { warn, info: jest.fn() }
  const container = {
    hasRegistration: (key: string) => key === "logger",
    resolve: (key: string, options?: { allowUnregistered?: boolean }) => {
      if (key === "logger") return logger
      if (options?.allowUnregistered) return undefined
      throw new Error(`${key} is not registered`)
    },
  }
  expect(await altapayPayoutsJob(container as never)).toBeUndefined()
  expect(await altapayPayoutsJob(container as never)).toBeUndefined()
  expect(warn).toHaveBeenCalledTimes(1)
  expect(warn.mock.calls[0][0]).toMatch(/payouts module is not registered/)
  expect(config).toEqual({ name: "altapay-payouts", schedule: { interval: 60 * 60_000 } })
})
