/**
 * Memory: heap after 100,000 operations against heap after 1,000, both after a full GC. One
 * operation is what the client does around a call, without the socket: the cached MERCHANT token,
 * a session body built and checked, a small cart's lines, and (every 10th operation) a gateway
 * answer with one transaction parsed. Sandbox round trips and full parses run at a few hundred to
 * a thousand per second on this shared machine, too slow for 100,000 in the time budget.
 */
import { buildOrderLines, parseGatewayResponse, sessionBody, type AltaPayClient } from "../src/altapay"
import { cart } from "./cpu"
import { CART_LINES, CART_TOTAL, fixedId } from "./lib/fixtures"
import type { Row } from "./lib/report"
import { nowNs, nsToMs } from "./lib/timing"

const MB = 1024 * 1024

/** Heap in use after two full garbage collections. */
export function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error("run with --expose-gc (bench/run.js does this)")
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

export async function memory(client: AltaPayClient, gatewayXml: string, log: (m: string) => void, total = 100_000): Promise<Row[]> {
  const small = cart(3)
  let n = 0
  const op = async (): Promise<void> => {
    await client.tokens.merchantToken()
    sessionBody({ orderId: fixedId("payses"), amountMinor: CART_TOTAL * 100, currency: "DKK", orderLines: CART_LINES, configuration: { autoCapture: false } })
    buildOrderLines(small)
    if (n++ % 10 === 0) parseGatewayResponse(gatewayXml)
  }
  const run = async (count: number): Promise<void> => {
    for (let i = 0; i < count; i++) await op()
  }

  await run(1_000)
  const before = heapAfterGc()
  const t0 = nowNs()
  let done = 1_000
  while (done < total) {
    const batch = Math.min(20_000, total - done)
    await run(batch)
    done += batch
    log(`memory: ${done.toLocaleString("en")} operations`)
  }
  const seconds = nsToMs(nowNs() - t0) / 1000
  const after = heapAfterGc()
  const growth = (after - before) / MB
  return [
    {
      figure: `heap growth after GC, ${total.toLocaleString("en")} vs 1,000 operations (token + session body + cart lines; gateway parse every 10th)`,
      measured: `${growth.toFixed(2)} MB (${(before / MB).toFixed(1)} -> ${(after / MB).toFixed(1)} MB; ${Math.round((total - 1_000) / seconds)} ops/s)`,
      target: "< 5 MB",
      status: growth < 5 ? "pass" : "miss",
    },
  ]
}
