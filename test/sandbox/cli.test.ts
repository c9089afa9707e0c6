import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe as describeSandbox, parseArgs } from "../../src/sandbox/cli"
import { start } from "./helpers"

const root = join(__dirname, "..", "..")

describe("altapay-sandbox command line", () => {
  test("defaults and flags", () => {
    expect(parseArgs([])).toEqual({ port: 8787, host: "127.0.0.1", username: "sandbox", password: "sandbox" })
    expect(parseArgs(["--port", "0", "--username=u", "--password", "p", "--callback-secret", "s", "--host", "0.0.0.0"])).toEqual({
      port: 0,
      host: "0.0.0.0",
      username: "u",
      password: "p",
      callbackSecret: "s",
    })
    expect(() => parseArgs(["--port", "http"])).toThrow(/--port/)
    expect(() => parseArgs(["--nope"])).toThrow(/Unknown option/)
  })

  test("the banner names both API bases, the hosted page and the credentials", async () => {
    const sandbox = await start()
    try {
      const text = describeSandbox(sandbox, { port: 0, host: "127.0.0.1", username: "u", password: "p" })
      expect(text).toContain(`${sandbox.url}   (API at /checkout/v1/api)`)
      expect(text).toContain("/merchant/API")
      expect(text).toContain(`${sandbox.url}/sandbox/pay/<paymentId>`)
      expect(text).toMatch(/username:\s+u/)
    } finally {
      await sandbox.close()
    }
  })

  const built = existsSync(join(root, ".medusa", "server", "src", "sandbox", "cli.js"))
  ;(built ? test.skip : test)("the bin asks for a build when the compiled CLI is missing", () => {
    const result = spawnSync(process.execPath, [join(root, "bin", "altapay-sandbox.js")], { encoding: "utf8" })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("Run `npm run build` first")
  })
})
