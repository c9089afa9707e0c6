/**
 * Traces and metrics through OpenTelemetry's API, which Medusa's own instrumentation sets up
 * (registerOtel in the store's instrumentation.ts): without it every call here is a no-op. One
 * CLIENT span per AltaPay call, made when the call ends with its real start and end, under
 * whatever span was active (Medusa's HTTP request, workflow or job). The counters are the ones a
 * platform team alerts on: docs/observability.md says which, and at what level.
 */
import { metrics, SpanKind, SpanStatusCode, trace, type Attributes } from "@opentelemetry/api"
import type { AltaPayCall } from "../../altapay"

/** The instrumentation scope of every span and instrument of the plugin. */
export const TELEMETRY_SCOPE = "medusa-payment-altapay"

/** Span attributes and metric labels: low-cardinality values only (never an id, an amount or a message). */
export const ATTRIBUTES = {
  operation: "altapay.operation",
  registration: "altapay.registration",
  outcome: "altapay.outcome",
  retries: "altapay.retries",
  result: "altapay.result",
  errorCode: "altapay.error_code",
  status: "http.response.status_code",
  job: "altapay.follow_up.job",
} as const

const tracer = () => trace.getTracer(TELEMETRY_SCOPE)
const meter = () => metrics.getMeter(TELEMETRY_SCOPE)

// Instruments are made on first use, so a MeterProvider Medusa registers at start-up is the one used.
let instruments: ReturnType<typeof makeInstruments> | undefined
const counters = () => (instruments ??= makeInstruments())

function makeInstruments() {
  const m = meter()
  return {
    calls: m.createCounter("altapay.calls", { description: "Calls to AltaPay, by operation, registration and outcome" }),
    duration: m.createHistogram("altapay.call.duration", { description: "How long a call to AltaPay took, retries included", unit: "ms" }),
    declines: m.createCounter("altapay.declines", { description: "Calls AltaPay answered with a refusal (Result Failed, Fail, Error...)" }),
    lostAnswers: m.createCounter("altapay.lost_answers", { description: "Calls that may have reached AltaPay but got no usable answer" }),
    latePosts: m.createCounter("altapay.callbacks.late", { description: "AltaPay posts whose signed time was older than callbackToleranceSeconds" }),
    followUpFinds: m.createCounter("altapay.follow_up.finds", {
      description: "What a follow-up run settled that a post or an answer should have: sessions paid, Open results concluded, uncertain money settled",
    }),
  }
}

/** The span, the call counter and duration, and the decline or lost-answer counter of one call. */
export function recordCall(call: AltaPayCall, registration: string): void {
  const labels: Attributes = { [ATTRIBUTES.operation]: call.operation, [ATTRIBUTES.registration]: registration, [ATTRIBUTES.outcome]: call.outcome }
  const span = tracer().startSpan(`AltaPay ${call.operation}`, {
    kind: SpanKind.CLIENT,
    startTime: call.startedAt,
    attributes: {
      ...labels,
      [ATTRIBUTES.retries]: call.retries,
      ...(call.status === undefined ? {} : { [ATTRIBUTES.status]: call.status }),
      ...(call.result === undefined ? {} : { [ATTRIBUTES.result]: call.result }),
      ...(call.errorCode === undefined ? {} : { [ATTRIBUTES.errorCode]: call.errorCode }),
    },
  })
  // A decline is AltaPay's answer, not a failure of the call; lost answers and errors are.
  if (call.outcome === "lost" || call.outcome === "not_sent" || call.outcome === "error") span.setStatus({ code: SpanStatusCode.ERROR, message: call.outcome })
  span.end(new Date(call.startedAt.getTime() + call.durationMs))
  const c = counters()
  c.calls.add(1, labels)
  c.duration.record(call.durationMs, labels)
  const short = { [ATTRIBUTES.operation]: call.operation, [ATTRIBUTES.registration]: registration }
  if (call.outcome === "declined") c.declines.add(1, short)
  if (call.outcome === "lost") c.lostAnswers.add(1, short)
}

/** A signed post from AltaPay that arrived later than the registration's tolerance. */
export function countLatePost(registration: string): void {
  counters().latePosts.add(1, { [ATTRIBUTES.registration]: registration })
}

/**
 * What a follow-up run settled that a post or an answer should have: a paid session whose
 * callback never came, an Open result concluded, a money attempt whose answer was lost. Counted
 * per registration, job and outcome (the run report's own words) from the report's counts.
 */
export const FOLLOW_UP_FINDS: ReadonlySet<string> = new Set([
  "order placed",
  "payment recorded",
  "released",
  "captured without order",
  "settled as done",
  "recorded as failed",
  "recorded",
  "made",
  "not made",
  "needs the merchant",
])

export function countFollowUpFinds(registration: string, job: string, before: Record<string, number>, after: Record<string, number>): void {
  for (const [outcome, total] of Object.entries(after)) {
    const found = total - (before[outcome] ?? 0)
    if (found > 0 && FOLLOW_UP_FINDS.has(outcome)) {
      counters().followUpFinds.add(found, { [ATTRIBUTES.registration]: registration, [ATTRIBUTES.job]: job, [ATTRIBUTES.outcome]: outcome })
    }
  }
}
