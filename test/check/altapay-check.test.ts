/**
 * `altapay-check` against the sandbox over HTTP: a good configuration passes (exit 0); a wrong
 * password (one problem, what it decides skipped), an unknown terminal, an http:// URL without
 * allowInsecureUrls, a providerId that is not the registration's id and a missing plugin entry are
 * each a problem line (exit 1); with --production a sandbox set-up is a problem too. The README's medusa-config.example.ts is
 * checked as a store would have it (defineConfig), and the bin runs as `npx altapay-check` does.
 */
import { spawn } from "node:child_process"
import path from "node:path"
import { terminalLines } from "../../src/check/terminals"
import { linesWith, SANDBOX_TERMINAL as TERMINAL, useCheckCli } from "../helpers/check-cli"
import { CALLBACK_SECRET, SANDBOX_PASSWORD, SANDBOX_USER } from "../helpers/sandbox"

const ROOT = path.join(__dirname, "..", "..")
const cli = useCheckCli()
const { goodOptions, writeConfig, check } = cli

test("a good sandbox configuration: every check ok, the sandbox set-up noted, exit 0", async () => {
  const { code, output } = await check(["--config", writeConfig(goodOptions())])
  expect(linesWith(output, "problem")).toEqual([])
  expect(code).toBe(0)
  const ok = linesWith(output, "ok").join("\n")
  expect(ok).toContain("medusa-payment-altapay is in plugins")
  expect(ok).toContain("pp_altapay_altapay   options are valid")
  expect(ok).toContain(`Checkout API at ${cli.sandbox().checkoutUrl} accepts the API user ${SANDBOX_USER}`)
  expect(ok).toContain("merchant API at")
  expect(ok).toContain(`terminal "${TERMINAL}" is one of the API user's terminals`)
  expect(ok).toContain("funding files can be listed (payouts)")
  expect(linesWith(output, "note").join("\n")).toMatch(/local sandbox[\s\S]*allowInsecureUrls is true/)
  expect(output.at(-1)).toBe("No problems found.")
})

test("a wrong password is one problem, the credentials; what they decide is skipped, not a problem of its own; exit 1", async () => {
  const { code, output } = await check(["--config", writeConfig({ ...goodOptions(), password: "not-the-password" })])
  expect(code).toBe(1)
  expect(linesWith(output, "problem")).toEqual([
    expect.stringContaining(
      `AltaPay refuses the username or password (401) at the Checkout API (${cli.sandbox().checkoutUrl}) and the merchant API (${cli.sandbox().gatewayUrl}): check ALTAPAY_USERNAME and ALTAPAY_PASSWORD`
    ),
  ])
  expect(linesWith(output, "skipped")).toEqual([
    expect.stringContaining("terminals: not checked: credentials refused"),
    expect.stringContaining("funding files (payouts): not checked: credentials refused"),
  ])
  // Nothing tells the merchant to turn payouts off for a wrong password.
  expect(output.join("\n")).not.toContain("payouts: { enabled: false }")
  expect(output.join("\n")).not.toContain("not-the-password")
})

test("an unknown terminal is a problem that lists the API user's terminals, exit 1", async () => {
  const { code, output } = await check(["--config", writeConfig({ ...goodOptions(), terminal: "Shop DKK Terminal", acceptedTerminals: ["MobilePay Sandbox Terminal"] })])
  expect(code).toBe(1)
  expect(linesWith(output, "problem")).toEqual([
    expect.stringContaining(`terminal "Shop DKK Terminal" is not one of the API user's terminals (AltaPay lists "${TERMINAL}", "MobilePay Sandbox Terminal")`),
  ])
  expect(linesWith(output, "ok").join("\n")).toContain('acceptedTerminals "MobilePay Sandbox Terminal" is one of the API user\'s terminals')
})

test("a per-currency terminal is checked against the currencies the sandbox lists for it, as AltaPay's getTerminals does", async () => {
  const { code, output } = await check(["--config", writeConfig({ ...goodOptions(), terminals: { DKK: TERMINAL, JPY: TERMINAL } })])
  expect(code).toBe(1)
  expect(linesWith(output, "ok").join("\n")).toContain(`terminals.DKK "${TERMINAL}" is one of the API user's terminals`)
  expect(linesWith(output, "problem")).toEqual([
    expect.stringContaining(`terminals.JPY "${TERMINAL}" does not take JPY (AltaPay lists DKK, EUR, SEK, NOK, GBP, USD, CHF, PLN for it)`),
  ])
})

test("an http:// URL without allowInsecureUrls is the provider's own problem, and AltaPay is not called", async () => {
  const before = cli.sandbox().ledger().length
  const { code, output } = await check(["--config", writeConfig({ ...goodOptions(), allowInsecureUrls: false })])
  expect(code).toBe(1)
  expect(linesWith(output, "problem")).toEqual([expect.stringContaining("option checkoutUrl: must use https://"), expect.stringContaining("option gatewayUrl: must use https://")])
  expect(cli.sandbox().ledger().length).toBe(before)
})

test("a providerId that is not the registration's id, and a missing plugin entry, are problems", async () => {
  const { code, output } = await check(["--config", writeConfig({ ...goodOptions(), providerId: "altapay" }, { id: "card", plugin: false }), "--offline"])
  expect(code).toBe(1)
  expect(linesWith(output, "problem")).toEqual([
    expect.stringContaining("medusa-payment-altapay is not in plugins"),
    expect.stringContaining('pp_altapay_card      option providerId: is "altapay" but this registration\'s id in medusa-config is "card"'),
  ])
})

test("without providerId, the registration's id is the provider's: no problem", async () => {
  const { output } = await check(["--config", writeConfig(goodOptions(), { id: "card" }), "--offline"])
  expect(linesWith(output, "problem")).toEqual([])
  expect(linesWith(output, "ok").join("\n")).toContain("pp_altapay_card      options are valid")
})

test("--production: the sandbox URLs, allowInsecureUrls and a missing callbackSecret are problems", async () => {
  const { callbackSecret: _, ...withoutSecret } = goodOptions()
  const { code, output } = await check(["--config", writeConfig(withoutSecret), "--production", "--offline"])
  expect(code).toBe(1)
  const problems = linesWith(output, "problem").join("\n")
  expect(problems).toContain("are a local sandbox")
  expect(problems).toContain("allowInsecureUrls is true (ALTAPAY_ALLOW_INSECURE_URLS): remove it before going live")
  expect(problems).toContain("no callbackSecret")
})

test("medusa-config.example.ts with the README's sandbox environment passes", async () => {
  const env = {
    ALTAPAY_CHECKOUT_URL: cli.sandbox().checkoutUrl,
    ALTAPAY_ALLOW_INSECURE_URLS: "true",
    ALTAPAY_USERNAME: SANDBOX_USER,
    ALTAPAY_PASSWORD: SANDBOX_PASSWORD,
    ALTAPAY_TERMINAL: TERMINAL,
    ALTAPAY_CALLBACK_SECRET: CALLBACK_SECRET,
    MEDUSA_BACKEND_URL: "http://localhost:9000",
  }
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
  Object.assign(process.env, env)
  try {
    const { code, output } = await check(["--config", path.join(ROOT, "medusa-config.example.ts")])
    expect(linesWith(output, "problem")).toEqual([])
    expect(code).toBe(0)
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
})

test("no config to load is exit 2 with what to do", async () => {
  const { code, output } = await check([])
  expect(code).toBe(2)
  expect(output[0]).toContain("No medusa-config in")
  expect((await check(["--unknown"])).code).toBe(2)
})

test("a per-currency terminal that does not take its currency is a problem", () => {
  const known = [{ title: "Shop EUR", natures: ["CreditCard"], currencies: ["EUR"] }]
  expect(terminalLines({ terminals: { DKK: "Shop EUR" } }, known)).toEqual([["problem", expect.stringContaining('terminals.DKK "Shop EUR" does not take DKK')]])
  expect(terminalLines({ terminals: { eur: "Shop EUR" } }, known)).toEqual([["ok", expect.any(String)]])
})

/** bin/altapay-check.js as `npx altapay-check` runs it in a checkout (from the sources). */
function runBin(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin", "altapay-check.js"), ...args], { cwd: cli.dir(), env: { ...process.env, NODE_OPTIONS: "" } })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.once("exit", (code) => resolve({ code, output }))
  })
}

test("the bin exits 0 for a good configuration and 1 for a wrong password", async () => {
  const good = await runBin(["--config", writeConfig(goodOptions())])
  expect(good.output).toContain("No problems found.")
  expect(good.code).toBe(0)
  const bad = await runBin(["--config", writeConfig({ ...goodOptions(), password: "wrong-password" })])
  expect(bad.output).toContain("AltaPay refuses the username or password (401)")
  expect(bad.code).toBe(1)
}, 60_000)
