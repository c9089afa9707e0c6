/**
 * The naive integration most payment plugins are: node:http with `agent: false` (a new connection
 * per request), and a POST authenticate for a new token before every session creation.
 */
import http from "node:http"
import { createProvider, fixedId, initiate, providerOptions, substitute, type WireRequest } from "./lib/fixtures"
import type { Row } from "./lib/report"
import { PASSWORD, USER, type RemoteSandbox } from "./lib/sandbox-process"
import { interleaved, median, medianRatio, sequentialLatencies, throughput, percentile } from "./lib/timing"

const CONCURRENCY = 64

function post(origin: string, path: string, headers: Record<string, string>, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, origin), { method: "POST", agent: false, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        if (res.statusCode !== 200) reject(new Error(`naive POST ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`))
        else resolve(text)
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(body)
  })
}

export async function naiveBaseline(sandbox: RemoteSandbox, template: WireRequest, log: (m: string) => void): Promise<Row[]> {
  const provider = createProvider(providerOptions(sandbox, "storefront"))
  const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`
  const templateId = /"orderId":"([^"]+)"/.exec(template.body ?? "")?.[1]
  if (!templateId) throw new Error("the session template carries no orderId")

  const naive = async (): Promise<unknown> => {
    const auth = JSON.parse(
      await post(sandbox.url, "/checkout/v1/api/authenticate", { authorization: basic, "content-type": "application/json", accept: "application/json" }, '{"role":"MERCHANT"}')
    ) as { token: string }
    const request = substitute(template, { [templateId]: fixedId("payses") })
    const body = await post(sandbox.url, template.path, { ...request.headers, authorization: `Bearer ${auth.token}` }, request.body ?? "")
    return JSON.parse(body) as unknown
  }
  const variants = { provider: () => initiate(provider), naive } as const
  const names = Object.keys(variants) as Array<keyof typeof variants>
  for (const name of names) await throughput(100, CONCURRENCY, variants[name])

  log(`naive baseline: throughput, 5 rounds x 600 session creations at ${CONCURRENCY} in flight; latency 5 rounds x 100 sequential`)
  const tput = await interleaved(names, 5, (name) => throughput(600, CONCURRENCY, variants[name]))
  const p50 = await interleaved(names, 5, async (name) => percentile(await sequentialLatencies(100, variants[name]), 50))
  await sandbox.clearLedger()
  const ratio = medianRatio(tput.provider, tput.naive)
  const latencyRatio = medianRatio(p50.naive, p50.provider)
  return [
    {
      figure: `session creation throughput at ${CONCURRENCY}: provider / naive (token + connection per call)`,
      measured: `${ratio.toFixed(2)}x (${Math.round(median(tput.provider))}/s vs ${Math.round(median(tput.naive))}/s)`,
      target: ">= 2x",
      status: ratio >= 2 ? "pass" : "miss",
    },
    {
      figure: "session creation p50: naive / provider (sequential)",
      measured: `${latencyRatio.toFixed(2)}x (${Math.round(median(p50.naive) * 1000)} µs vs ${Math.round(median(p50.provider) * 1000)} µs)`,
      target: "-",
      status: "info",
    },
  ]
}
