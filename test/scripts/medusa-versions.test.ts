/**
 * `npm run test:medusa-version -- --every-minor` picks, from the registry's list, the release of
 * each Medusa minor a merchant would install: its newest, from the supported floor's minor up to
 * the one before the minor `npm test` covers.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { newestOfEachMinor } = require("../../scripts/test-medusa-version") as {
  newestOfEachMinor: (published: string[], floor: string, developed: string) => string[]
}

describe("the Medusa versions --every-minor tests", () => {
  const published = [
    "2.11.3",
    "2.12.0",
    "2.12.6",
    "2.13.0",
    "2.13.10",
    "2.13.9",
    "2.14.0-preview-1",
    "2.14.0",
    "2.15.0-rc.1",
    "2.16.1",
    "2.16.0",
    "2.21.0",
    "2.21.2",
    "2.21.3",
    "2.22.0",
  ]

  it("takes each minor's newest release (by number, not by text), oldest first", () => {
    expect(newestOfEachMinor(published, "2.12.6", "2.21.2")).toEqual(["2.12.6", "2.13.10", "2.14.0", "2.16.1"])
  })

  it("leaves out what is below the floor, the developed minor and anything after it, and pre-releases", () => {
    const picked = newestOfEachMinor(published, "2.12.6", "2.21.2")
    expect(picked).not.toContain("2.11.3")
    expect(picked).not.toContain("2.12.0")
    expect(picked.filter((v) => v.startsWith("2.21."))).toEqual([])
    expect(picked).not.toContain("2.22.0")
    expect(picked.some((v) => v.includes("-"))).toBe(false)
  })

  it("refuses a floor or developed version that is not a plain version", () => {
    expect(() => newestOfEachMinor(published, "^2.12.6", "2.21.2")).toThrow("not plain versions")
  })
})
