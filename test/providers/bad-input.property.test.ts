/**
 * Hostile input never produces an untyped exception: options, callbacks and order-line sources
 * either pass or fail with the package's typed errors, and no line that breaks the rules is sent.
 */
import fc from "fast-check"
import { MedusaError } from "@medusajs/framework/utils"
import {
  AltaPayCallbackSignatureError,
  AltaPayValidationError,
  buildOrderLines,
  parseCallback,
  toGatewayOrderLineFields,
  validateOrderLines,
  verifyCallbackSignature,
  type OrderLineSource,
} from "../../src/altapay"
import { AltaPayProviderService } from "../../src/providers/altapay"
import { parseAltaPayOptions } from "../../src/lib/registrations/options"

const RUNS = 10_000
const SECRET_VALUE = "pw-9f8e7d6c5b4a"

const optionValue = fc.oneof(
  fc.string(),
  fc.webUrl(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 2 })
)
const optionKeys = [
  "checkoutUrl",
  "gatewayUrl",
  "username",
  "password",
  "terminal",
  "terminals",
  "autoCapture",
  "callbackSecret",
  "backendUrl",
  "successUrl",
  "failureUrl",
  "flow",
  "language",
  "country",
  "headersTimeoutMs",
  "allowOverRefund",
  "providerId",
  "bogus",
]

describe("option validation", () => {
  it("any options object yields parsed options or a list of problems, never a crash or a leaked secret", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...optionKeys), optionValue, { maxKeys: 10 }), (raw) => {
        const withSecret = { ...raw, password: SECRET_VALUE }
        const parsed = parseAltaPayOptions(withSecret)
        if ("problems" in parsed) {
          if (parsed.problems.length === 0) return false
          if (parsed.problems.some((p) => p.includes(SECRET_VALUE))) return false
          try {
            AltaPayProviderService.validateOptions(withSecret)
            return false
          } catch (error) {
            return error instanceof MedusaError && !(error as Error).message.includes(SECRET_VALUE)
          }
        }
        return typeof parsed.options.checkoutUrl === "string" && typeof parsed.options.autoCapture === "boolean"
      }),
      { numRuns: RUNS }
    )
  })
})

const formKey = fc.oneof(
  fc.constantFrom("shop_orderid", "transaction_id", "payment_id", "status", "payment_status", "amount", "currency", "type", "require_capture", "transaction_info[x]", "xml"),
  fc.string({ maxLength: 8 })
)
const formValue = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("succeeded", "failed", "preauth", "208", "DKK", "9.66", "1e5", "-1", "abc123", ""))

describe("callback parsing", () => {
  it("any form body parses to a callback or a validation error", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(formKey, formValue), { maxLength: 12 }), (pairs) => {
        const body = new URLSearchParams(pairs).toString()
        try {
          const callback = parseCallback(body)
          return typeof callback.shopOrderId === "string" && callback.shopOrderId.length > 0 && (callback.amountMinor === undefined || Number.isSafeInteger(callback.amountMinor))
        } catch (error) {
          return error instanceof AltaPayValidationError
        }
      }),
      { numRuns: RUNS }
    )
  })

  it("any signature header is either a valid signature or a signature error", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.option(fc.string({ maxLength: 160 })), (body, header) => {
        try {
          verifyCallbackSignature({ rawBody: body, signatureHeader: header ?? undefined, secret: "s3cret-s3cret-s3cret" })
          return false // a random header never matches
        } catch (error) {
          return error instanceof AltaPayCallbackSignatureError
        }
      }),
      { numRuns: RUNS }
    )
  })

  it("the provider answers any unsigned or malformed webhook with not_supported, without touching AltaPay", async () => {
    const provider = new AltaPayProviderService({}, {
      checkoutUrl: "http://127.0.0.1:9",
      gatewayUrl: "http://127.0.0.1:9",
      username: "u",
      password: SECRET_VALUE,
      callbackSecret: "callback-secret-0123456789",
      backendUrl: "http://127.0.0.1:9000",
      maxRetries: 0,
      allowInsecureUrls: true,
    } as never)
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(formKey, formValue), { maxLength: 10 }),
        fc.dictionary(fc.constantFrom("altapay-signature", "content-type", "x"), fc.string({ maxLength: 120 })),
        async (pairs, headers) => {
          const raw = Buffer.from(new URLSearchParams(pairs).toString())
          const result = await provider.getWebhookActionAndData({ data: Object.fromEntries(pairs), rawData: raw, headers })
          return result.action === "not_supported"
        }
      ),
      { numRuns: RUNS }
    )
  })
})

const sourceArb: fc.Arbitrary<OrderLineSource> = fc.record({
  currency: fc.constantFrom("DKK", "JPY", "KWD", "EUR", "XYZ", "dkk", ""),
  totalMinor: fc.oneof(fc.integer({ min: -1000, max: 10_000_000 }), fc.double(), fc.constant(Number.NaN)),
  items: fc.array(
    fc.record({
      id: fc.string({ maxLength: 120 }),
      title: fc.string({ maxLength: 300 }),
      sku: fc.option(fc.string({ maxLength: 120 })),
      quantity: fc.oneof(fc.integer({ min: -2, max: 50 }), fc.double()),
      unitPriceMinor: fc.oneof(fc.integer({ min: -1000, max: 1_000_000 }), fc.double()),
      taxInclusive: fc.boolean(),
      taxRates: fc.array(fc.record({ rate: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.double()) }), { maxLength: 3 }),
      discountMinor: fc.option(fc.integer({ min: -100, max: 2_000_000 }), { nil: undefined }),
      imageUrl: fc.option(fc.oneof(fc.webUrl(), fc.string())),
    }),
    { maxLength: 6 }
  ),
  shipping: fc.array(
    fc.record({
      id: fc.string({ maxLength: 20 }),
      name: fc.string(),
      amountMinor: fc.integer({ min: -100, max: 100_000 }),
      taxRates: fc.array(fc.record({ rate: fc.integer({ min: 0, max: 50 }) }), { maxLength: 2 }),
    }),
    { maxLength: 2 }
  ),
  credits: fc.array(fc.record({ id: fc.string({ maxLength: 20 }), label: fc.string(), amountMinor: fc.integer({ min: -100, max: 1_000_000 }) }), { maxLength: 2 }),
}) as fc.Arbitrary<OrderLineSource>

describe("order-line building", () => {
  it("any cart yields valid lines that total the amount, or a validation error; never an invalid line on the wire", () => {
    fc.assert(
      fc.property(sourceArb, (source) => {
        let lines
        try {
          lines = buildOrderLines(source)
        } catch (error) {
          return error instanceof AltaPayValidationError
        }
        validateOrderLines(lines, { currency: source.currency, expectedTotalMinor: source.totalMinor })
        const fields = toGatewayOrderLineFields(lines, source.currency)
        return Object.keys(fields).length >= lines.length
      }),
      { numRuns: RUNS }
    )
  })
})
