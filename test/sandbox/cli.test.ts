import { describe as describeSandbox, parseArgs } from "../../src/sandbox/cli"
import { spawnCli } from "./cli-process"
import { start } from "./helpers"

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
    expect(parseArgs(["--quiet"])).toMatchObject({ quiet: true })
  })

  test("--return-mode keeps the old browser redirect on request; anything else is refused with the choices", () => {
    expect(parseArgs(["--return-mode", "browser-redirect"])).toMatchObject({ returnMode: "browser-redirect" })
    expect(parseArgs(["--return-mode=server-post"])).toMatchObject({ returnMode: "server-post" })
    expect(() => parseArgs(["--return-mode", "get"])).toThrow(/server-post, browser-redirect/)
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

  test("`npx altapay-sandbox` in a checkout runs the sandbox from its sources, with no build", async () => {
    const cli = await spawnCli(["--port", "0"])
    try {
      const answer = await fetch(`${cli.url}/checkout/v1/api/authenticate`, { method: "POST" })
      expect(answer.status).toBe(401)
    } finally {
      await cli.stop()
    }
  }, 30_000)

  test("`npx altapay-sandbox` prints one line per request and serves its ledger at /sandbox/ledger", async () => {
    const cli = await spawnCli(["--port", "0"])
    try {
      const basic = `Basic ${Buffer.from("sandbox:sandbox").toString("base64")}`
      const answer = await fetch(`${cli.url}/checkout/v1/api/authenticate`, { method: "POST", headers: { authorization: basic } })
      expect(answer.status).toBe(200)
      await cli.waitFor("#1 POST /checkout/v1/api/authenticate authenticate 200")

      const ledger = await fetch(`${cli.url}/sandbox/ledger`)
      expect(ledger.status).toBe(200)
      const { entries } = (await ledger.json()) as { entries: Array<Record<string, unknown>> }
      expect(entries).toEqual([expect.objectContaining({ seq: 1, method: "POST", path: "/checkout/v1/api/authenticate", operation: "authenticate", auth: "basic", status: 200 })])
      expect(JSON.stringify(entries)).not.toContain(basic.slice(6))
      // Reading the ledger is not itself a request in it; `after` gives only newer entries.
      expect(((await (await fetch(`${cli.url}/sandbox/ledger?after=1`)).json()) as { entries: unknown[] }).entries).toEqual([])
    } finally {
      await cli.stop()
    }
  }, 30_000)

  test("--quiet prints no request lines; the ledger route still has them", async () => {
    const cli = await spawnCli(["--port", "0", "--quiet"])
    let output: string
    try {
      expect((await fetch(`${cli.url}/checkout/v1/api/authenticate`, { method: "POST" })).status).toBe(401)
      const { entries } = (await (await fetch(`${cli.url}/sandbox/ledger`)).json()) as { entries: Array<{ operation: string; status: number }> }
      expect(entries).toEqual([expect.objectContaining({ operation: "authenticate", status: 401 })])
    } finally {
      output = await cli.stop()
    }
    expect(output).toContain("stopping the AltaPay sandbox")
    expect(output).not.toContain("#1 POST")
  }, 30_000)
})
