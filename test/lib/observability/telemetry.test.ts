/**
 * Traces and metrics as a store's OpenTelemetry set-up (Medusa's registerOtel) receives them: a
 * tracer and a meter provider with in-memory exporters, and the registration's shared client
 * talking HTTP to the sandbox.
 */
import { context, metrics, trace } from "@opentelemetry/api"
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks"
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics"
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { countFollowUpFinds } from "../../../src/lib/observability/telemetry"
import { parseAltaPayOptions } from "../../../src/lib/registrations/options"
import { sharedAltaPayClient } from "../../../src/lib/registrations/shared-client"
import { startSandbox, type Sandbox } from "../../../src/sandbox"
import { SANDBOX_PASSWORD, SANDBOX_USER } from "../../helpers/sandbox"

const spans = new InMemorySpanExporter()
const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 3_600_000 })
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }))
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }))
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())

/** The data points of metric `name`, as attributes and value. */
async function points(name: string): Promise<Array<{ attributes: Record<string, unknown>; value: unknown }>> {
  const { resourceMetrics } = (await reader.collect()) as { resourceMetrics: ResourceMetrics }
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name)
  return (metric?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value }))
}

describe("spans and counters of AltaPay calls", () => {
  let sandbox: Sandbox
  let client: ReturnType<typeof sharedAltaPayClient>
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, username: SANDBOX_USER, password: SANDBOX_PASSWORD })
    const parsed = parseAltaPayOptions({
      checkoutUrl: sandbox.checkoutUrl,
      gatewayUrl: sandbox.gatewayUrl,
      username: SANDBOX_USER,
      password: SANDBOX_PASSWORD,
      backendUrl: "http://localhost:9000",
      allowInsecureUrls: true,
      providerId: "card",
      maxRetries: 2,
    })
    if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
    client = sharedAltaPayClient(parsed.options)
  })
  afterAll(async () => {
    await client.close()
    await sandbox.close()
  })
  afterEach(() => {
    sandbox.faults.clear()
    spans.reset()
  })

  async function paid(amountMinor: number): Promise<string> {
    const session = await client.checkout.createSession({ orderId: `payses-${Math.random().toString(16).slice(2)}`, amountMinor, currency: "DKK" })
    const payment = await sandbox.simulatePayment(session.sessionId, { outcome: "authorize", callback: false })
    return payment.transactionId!
  }
  const spanOf = (operation: string) => spans.getFinishedSpans().filter((s) => s.attributes["altapay.operation"] === operation)

  it("a capture is one CLIENT span named by its operation, with registration, outcome, status, retries and its real duration", async () => {
    const transactionId = await paid(1000)
    const parent = trace.getTracer("test").startSpan("POST /admin/payments/:id/capture")
    await context.with(trace.setSpan(context.active(), parent), () => client.gateway.captureReservation({ transactionId }))
    parent.end()
    const [span] = spanOf("POST /merchant/API/captureReservation")
    expect(span.name).toBe("AltaPay POST /merchant/API/captureReservation")
    expect(span.kind).toBe(2) // SpanKind.CLIENT
    expect(span.attributes).toMatchObject({
      "altapay.registration": "pp_altapay_card",
      "altapay.outcome": "success",
      "altapay.result": "Success",
      "altapay.retries": 0,
      "http.response.status_code": 200,
    })
    // Under the caller's span (Medusa's request or workflow), timed from send to answer.
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId)
    expect(span.status.code).toBe(0)
    const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6
    expect(ms(span.endTime)).toBeGreaterThanOrEqual(ms(span.startTime))
  })

  it("a look-up retried after a 503 says so; a refused capture is a decline and counted", async () => {
    const transactionId = await paid(500)
    sandbox.faults.add({ route: "payments", kind: "503" })
    await client.gateway.payments({ transactionId })
    expect(spanOf("GET /merchant/API/payments")[0].attributes).toMatchObject({ "altapay.retries": 1, "altapay.outcome": "success" })
    await client.gateway.captureReservation({ transactionId })
    await expect(client.gateway.captureReservation({ transactionId })).rejects.toMatchObject({ code: "declined" })
    const declined = spanOf("POST /merchant/API/captureReservation").find((s) => s.attributes["altapay.outcome"] === "declined")
    expect(declined?.attributes["altapay.result"]).toBe("Failed")
    expect(await points("altapay.declines")).toEqual([
      { attributes: { "altapay.operation": "POST /merchant/API/captureReservation", "altapay.registration": "pp_altapay_card" }, value: 1 },
    ])
  })

  it("a lost answer marks the span an error and counts a lost answer", async () => {
    const transactionId = await paid(800)
    await client.gateway.captureReservation({ transactionId })
    sandbox.faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
    await expect(client.gateway.refundCapturedReservation({ transactionId, amountMinor: 100, currency: "DKK" })).rejects.toMatchObject({ mayHaveReachedAltaPay: true })
    const [span] = spanOf("POST /merchant/API/refundCapturedReservation")
    expect(span.attributes["altapay.outcome"]).toBe("lost")
    expect(span.status.code).toBe(2) // SpanStatusCode.ERROR
    expect(await points("altapay.lost_answers")).toEqual([
      { attributes: { "altapay.operation": "POST /merchant/API/refundCapturedReservation", "altapay.registration": "pp_altapay_card" }, value: 1 },
    ])
  })

  it("follow-up finds are counted by what the run settled, not by what it only looked at", async () => {
    countFollowUpFinds("pp_altapay_card", "payment sessions", { checked: 3 }, { checked: 8, "order placed": 2, waiting: 4 })
    expect(await points("altapay.follow_up.finds")).toEqual([
      { attributes: { "altapay.registration": "pp_altapay_card", "altapay.follow_up.job": "payment sessions", "altapay.outcome": "order placed" }, value: 2 },
    ])
  })
})
