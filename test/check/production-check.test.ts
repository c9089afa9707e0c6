/**
 * Issue 41, items 1-5: set-ups `altapay-check --production` used to pass (exit 0) or report badly,
 * each run through the command against the sandbox:
 * 1. a backendUrl AltaPay cannot post to (localhost, http on port 9000) or should not (http://);
 * 2. successUrl / failureUrl on localhost (medusa-config.example.ts without STORE_URL);
 * 3. a registration with no terminal: named for MobilePay, or on an API user with several terminals;
 * 4. `language: "dk"`;
 * 5. a missing backendUrl or callbackSecret not naming its variable (a wrong password: altapay-check.test.ts).
 */
import path from "node:path"
import { linesWith, useCheckCli } from "../helpers/check-cli"
import { loadExampleConfig, REPO, SANDBOX_ENV } from "../helpers/example-config"
import { CALLBACK_SECRET, SANDBOX_PASSWORD } from "../helpers/sandbox"

const cli = useCheckCli()
const { goodOptions, writeConfig, check } = cli

/** The problems `--production --offline` prints for options, beside the sandbox set-up's own. */
async function productionProblems(options: Record<string, unknown>, id?: string): Promise<string[]> {
  const { output } = await check(["--config", writeConfig(options, { id }), "--production", "--offline"])
  return linesWith(output, "problem").filter((line) => !/local sandbox|allowInsecureUrls/.test(line))
}

describe("1. backendUrl in production", () => {
  it("localhost on port 9000 is a problem that says why and names MEDUSA_BACKEND_URL", async () => {
    expect(await productionProblems(goodOptions())).toEqual([
      expect.stringMatching(
        /backendUrl: in production, http:\/\/localhost:9000 is localhost: AltaPay posts the notification and the customer's return to it from the internet.*MEDUSA_BACKEND_URL/
      ),
      expect.stringMatching(/backendUrl: in production, http:\/\/localhost:9000 is on port 9000: AltaPay calls callback URLs on ports 443 \(https\) and 80 \(http\) only/),
    ])
  })

  it("any public host on http://…:9000 is a problem; plain http:// on 80 too (unencrypted); https on 443 is not", async () => {
    expect(await productionProblems({ ...goodOptions(), backendUrl: "http://medusa.shop.example:9000" })).toEqual([expect.stringContaining("is on port 9000")])
    expect(await productionProblems({ ...goodOptions(), backendUrl: "http://medusa.shop.example" })).toEqual([
      expect.stringContaining(
        "backendUrl: http://medusa.shop.example is http://: the customer's return and AltaPay's notification, with the customer's details, would travel unencrypted"
      ),
    ])
    expect(await productionProblems({ ...goodOptions(), backendUrl: "https://medusa.shop.example" })).toEqual([])
  })

  it("is no problem without --production (a laptop with the sandbox)", async () => {
    const { output } = await check(["--config", writeConfig(goodOptions()), "--offline"])
    expect(linesWith(output, "problem")).toEqual([])
  })
})

describe("2. STORE_URL", () => {
  it("medusa-config.example.ts without STORE_URL, checked --production: the localhost landing pages are problems naming STORE_URL", async () => {
    const { STORE_URL: _unset, ...env } = SANDBOX_ENV
    const example = loadExampleConfig("medusa-config.example.ts", { ...env, ALTAPAY_CHECKOUT_URL: cli.sandbox().checkoutUrl, MEDUSA_BACKEND_URL: "https://medusa.shop.example" })
    const [entry] = Object.values(example.modules ?? {}).flatMap((module) => module.options?.providers ?? [])
    const problems = await productionProblems(entry.options)
    expect(problems).toEqual([
      expect.stringMatching(/successUrl: in production, http:\/\/localhost:8000 is localhost: a customer who paid would be sent to their own computer; .*STORE_URL/),
      expect.stringMatching(/failureUrl: in production, http:\/\/localhost:8000 is localhost/),
    ])
  })

  it("with NODE_ENV production the example itself stops, and the check says so (exit 2)", async () => {
    const env = { ...SANDBOX_ENV, NODE_ENV: "production" } as Record<string, string | undefined>
    delete env.STORE_URL
    const saved = Object.fromEntries(["STORE_URL", ...Object.keys(env)].map((key) => [key, process.env[key]]))
    for (const [key, value] of Object.entries({ ...env, STORE_URL: undefined })) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    try {
      const { code, output } = await check(["--config", path.join(REPO, "medusa-config.example.ts"), "--offline"])
      expect(code).toBe(2)
      expect(output.join("\n")).toContain("STORE_URL is not set: set it to the storefront's public https:// address")
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    }
  }, 30_000)
})

describe("3. a registration with no terminal", () => {
  it("named for MobilePay: a problem everywhere, naming ALTAPAY_MOBILEPAY_TERMINAL and the API user's terminals", async () => {
    const { terminal: _none, ...options } = goodOptions()
    const { code, output } = await check(["--config", writeConfig(options, { id: "mobilepay" })])
    expect(code).toBe(1)
    expect(linesWith(output, "problem")).toEqual([
      expect.stringContaining(
        'pp_altapay_mobilepay is named for MobilePay but has no terminal: AltaPay then opens its first card method, not MobilePay; set terminal to the API user\'s MobilePay terminal (ALTAPAY_MOBILEPAY_TERMINAL in medusa-config.multi.example.ts) (AltaPay lists "AltaPay Sandbox Test Terminal", "MobilePay Sandbox Terminal")'
      ),
    ])
  })

  it("any other, on an API user with several terminals: a problem in production, a note otherwise", async () => {
    const { terminal: _none, ...options } = goodOptions()
    const file = writeConfig(options, { id: "card" })
    const several = /no terminal or terminals: the API user has 2 terminals .*; set terminal \(ALTAPAY_TERMINAL\)/
    const production = await check(["--config", file, "--production"])
    expect(linesWith(production.output, "problem")).toContainEqual(expect.stringMatching(several))
    const test = await check(["--config", file])
    expect(linesWith(test.output, "problem")).toEqual([])
    expect(linesWith(test.output, "note")).toContainEqual(expect.stringMatching(several))
  })
})

describe("4. language", () => {
  it('"dk" is a problem suggesting "da"', async () => {
    const { code, output } = await check(["--config", writeConfig({ ...goodOptions(), language: "dk" }), "--offline"])
    expect(code).toBe(1)
    expect(linesWith(output, "problem")).toEqual([expect.stringContaining('option language: "dk" is not one of AltaPay\'s payment page languages')])
    expect(output.join("\n")).toContain('its language is "da": use language: "da"')
  })
})

describe("5. what to set, by name", () => {
  it("a missing backendUrl names MEDUSA_BACKEND_URL", async () => {
    const { backendUrl: _unset, ...options } = goodOptions()
    const { output } = await check(["--config", writeConfig(options), "--offline"])
    expect(linesWith(output, "problem")).toEqual([
      expect.stringContaining("option backendUrl: is not set: give this Medusa server's public URL, where AltaPay posts its callbacks (MEDUSA_BACKEND_URL"),
    ])
  })

  it("a missing callbackSecret names ALTAPAY_CALLBACK_SECRET and where AltaPay's Merchant Interface makes it", async () => {
    const { callbackSecret: _unset, ...options } = goodOptions()
    const problems = await productionProblems({ ...options, backendUrl: "https://medusa.shop.example" })
    expect(problems).toEqual([
      expect.stringContaining(
        "no callbackSecret: every callback is confirmed by a look-up at AltaPay, and the customer's return lands without cart or order id; create a secret in AltaPay's Merchant Interface: Settings > Configuration, Webhook Secrets, Add Secret, and set the same value in ALTAPAY_CALLBACK_SECRET (callbackSecret)"
      ),
    ])
  })
})

// The sandbox credentials stay in the scratch configs only.
test("no secret is printed", async () => {
  const { output } = await check(["--config", writeConfig(goodOptions()), "--production", "--offline"])
  for (const secret of [SANDBOX_PASSWORD, CALLBACK_SECRET]) expect(output.join("\n")).not.toContain(secret)
})
