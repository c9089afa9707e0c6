import { spawn } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
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
    // A checkout without .medusa: the bin, and links to the sources and the TypeScript loader.
    const checkout = mkdtempSync(join(tmpdir(), "altapay-cli-"))
    mkdirSync(join(checkout, "bin"))
    copyFileSync(join(root, "bin", "altapay-sandbox.js"), join(checkout, "bin", "altapay-sandbox.js"))
    for (const folder of ["src", "demo"]) symlinkSync(join(root, folder), join(checkout, folder), "dir")
    const child = spawn(process.execPath, [join(checkout, "bin", "altapay-sandbox.js"), "--port", "0"], { cwd: checkout, env: { ...process.env, NODE_OPTIONS: "" } })
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let output = ""
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString()
          if (output.includes("Press Ctrl+C")) resolve(output)
        })
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
        child.once("exit", (code) => reject(new Error(`altapay-sandbox exited (${code}): ${output}`)))
      })
      const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1]
      expect(url).toBeDefined()
      const answer = await fetch(`${url}/checkout/v1/api/authenticate`, { method: "POST" })
      expect(answer.status).toBe(401)
    } finally {
      child.kill("SIGTERM")
      rmSync(checkout, { recursive: true, force: true })
    }
  }, 30_000)
})
