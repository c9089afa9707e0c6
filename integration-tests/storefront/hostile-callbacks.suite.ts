/**
 * Hostile input at the routes anyone on the internet can post to: Medusa's webhook route
 * (POST /hooks/payment/altapay_altapay) and the plugin's return, verify-order and saved-card-return
 * endpoints. What a merchant relies on, whatever arrives there:
 *
 * - it fails closed: a post that is not AltaPay's (unsigned, forged, malformed) makes no order and
 *   records no payment, and one AltaPay did sign but whose content does not match the session
 *   (another amount, another currency, nothing paid) makes none either;
 * - no answer is a 5xx, and no answer carries a stack, a file path, a secret or a token;
 * - nothing logged carries the callback secret, the API password or a customer's token;
 * - the server stays up: the next customer's normal checkout completes.
 *
 * The bodies: repeated parameters, JSON, text/plain and multipart instead of a form, a body over
 * the parser's limit, non-UTF-8 bytes, look-alike characters in shop_orderid, XML nested thousands
 * deep, entity expansion (billion laughs) and an external entity, amounts such as "1e3", "0x10",
 * " 10 ", "-0" and "NaN".
 */
import { inspect } from "node:util"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeSuite } from "../../tools/test-store/store-app/runner"
import { API_PASSWORD, CALLBACK_SECRET } from "../../tools/test-store/altapay-sandbox"
import { altapayStore } from "../../tools/test-store/store-app/altapay-store"
import { eventsSettled } from "../../tools/test-store/store-app/events-settled"
import {
  createCart,
  eventually,
  orderForCart,
  orderPayments,
  payWithAltaPay,
  seedStore,
  startSession,
  storeHeaders,
  type Api,
  type SeededStore,
} from "../../tools/test-store/store"
import { signCallbackBody } from "../../src/altapay"
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import type { AltaPaySession } from "../../src/storefront"

const store = altapayStore()
const FORM = "application/x-www-form-urlencoded"

interface Answer {
  what: string
  status: number
  text: string
  location: string | null
}

/** A raw POST to the running app, bytes as given, no redirects followed. */
async function post(what: string, path: string, body: string | Buffer, headers: Record<string, string>): Promise<Answer> {
  const res = await fetch(`${store.medusaUrl()}${path}`, { method: "POST", headers, body: typeof body === "string" ? body : new Uint8Array(body), redirect: "manual" })
  return { what, status: res.status, text: await res.text(), location: res.headers.get("location") }
}

/** Signed as AltaPay signs (the store's callbackSecret, now): stands for AltaPay's own post, or a leaked secret. */
const signed = (body: string | Buffer, contentType = FORM) => ({
  "content-type": contentType,
  "altapay-signature": signCallbackBody(body, CALLBACK_SECRET, Math.floor(Date.now() / 1000)),
})
const form = (fields: Array<[string, string]>) => fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")

/** What an answer must never carry: a stack frame, a path of this machine, a secret. */
function leaks(answer: Answer, tokens: string[]): string[] {
  const text = `${answer.text}\n${answer.location ?? ""}`
  const found = [/\n\s+at .+:\d+:\d+/.test(text) && "stack frame", /\/(work|home|root|tmp|usr)\/|node_modules/.test(text) && "file path"]
  for (const secret of [CALLBACK_SECRET, API_PASSWORD, ...tokens]) if (secret && text.includes(secret)) found.push(`secret ${secret.slice(0, 6)}…`)
  return found.filter((f): f is string => !!f)
}

/** Every line Medusa's logger is given while `run` runs (still logged as usual). */
async function logged<T>(container: MedusaContainer, run: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER) as unknown as Record<string, (...args: unknown[]) => unknown>
  const spies = ["debug", "info", "warn", "error", "log", "panic"].filter((m) => typeof logger[m] === "function").map((m) => jest.spyOn(logger, m as never))
  const lines = () => spies.flatMap((spy) => spy.mock.calls.map((args) => (args as unknown[]).map((a) => inspect(a, { depth: 4 })).join(" ")))
  try {
    const value = await run()
    return { value, lines: lines() }
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
}

/** Changes the customer's own AltaPay session with its CUSTOMER token, as a browser can. */
async function changeAltaPaySession(session: AltaPaySession, patch: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${session.checkoutUrl}/checkout/v1/api/session/${session.sessionId}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(patch),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`AltaPay refused the session change (${res.status}): ${text.slice(0, 300)}`)
}

/** An APIResponse around `body`, as AltaPay's callback `xml` field carries it. */
const apiResponse = (body: string, prolog = "") =>
  `<?xml version="1.0" encoding="utf-8"?>${prolog}<APIResponse version="20170228"><Header><Date>2024-01-01T00:00:00+01:00</Date><ErrorCode>0</ErrorCode><ErrorMessage/></Header><Body><Result>Success</Result>${body}</Body></APIResponse>`
const transaction = (shopOrderId: string, extra = "") =>
  `<Transactions><Transaction><TransactionId>1</TransactionId><ShopOrderId>${shopOrderId}</ShopOrderId><Terminal>AltaPay Sandbox Test Terminal</Terminal><TransactionStatus>preauth</TransactionStatus><MerchantCurrency>208</MerchantCurrency><MerchantCurrencyAlpha>DKK</MerchantCurrencyAlpha><ReservedAmount>343.00</ReservedAmount>${extra}</Transaction></Transactions>`
const deep = (levels: number) => `${"<X>".repeat(levels)}x${"</X>".repeat(levels)}`
const LAUGHS =
  '<!DOCTYPE APIResponse [<!ENTITY l0 "lol">' +
  Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("") +
  '<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'

export default storeSuite({
  testSuite: ({ api: rawApi, getContainer }) => {
    const api = rawApi as unknown as Api
    let seed: SeededStore
    beforeAll(async () => {
      seed = await seedStore(getContainer())
    })
    beforeEach(() => store.sandbox().clearLedger())
    const moneyMoved = () =>
      store
        .sandbox()
        .ledger()
        .filter((e) => ["captureReservation", "refundCapturedReservation", "releaseReservation"].includes(e.operation))

    it("hostile posts at the webhook route: never a 5xx or a leak, no order for a paid or an unpaid cart, and the next checkout completes", async () => {
      const container = getContainer()
      // Paid at AltaPay, no callback yet: only a callback AltaPay signed may complete it.
      const paidCart = await createCart(api, seed)
      const paidSession = await startSession(api, seed, paidCart.id)
      await payWithAltaPay(paidSession, { sandbox: store.sandbox(), callback: false })
      const paidId = shopOrderIdFor(paidSession.paymentSessionId)
      // Not paid at all: even a signed "succeeded" must not make its order.
      const unpaidCart = await createCart(api, seed)
      const unpaidSession = await startSession(api, seed, unpaidCart.id)
      const unpaidId = shopOrderIdFor(unpaidSession.paymentSessionId)
      const hook = "/hooks/payment/altapay_altapay"
      // Each claim names the carts' own total (the same for both): only AltaPay's record can tell it apart.
      const total = Number(paidCart.total).toFixed(2)
      const succeeded = (id: string, more: Array<[string, string]> = []) => form([["shop_orderid", id], ["status", "succeeded"], ["amount", total], ["currency", "DKK"], ...more])

      const { value: answers, lines } = await logged(container, async () => {
        const unsigned: Array<[string, string | Buffer, Record<string, string>]> = [
          ["repeated status", `${succeeded(paidId)}&status=failed`, { "content-type": FORM }],
          [
            "two xml fields",
            succeeded(paidId, [
              ["xml", apiResponse(transaction(paidId))],
              ["xml", "<a/>"],
            ]),
            { "content-type": FORM },
          ],
          ["JSON", JSON.stringify({ shop_orderid: paidId, status: "succeeded", amount: total, currency: "DKK" }), { "content-type": "application/json" }],
          ["JSON array status", JSON.stringify({ shop_orderid: paidId, status: ["succeeded", "failed"] }), { "content-type": "application/json" }],
          ["malformed JSON", '{"shop_orderid": "', { "content-type": "application/json" }],
          ["text/plain", succeeded(paidId), { "content-type": "text/plain" }],
          [
            "multipart",
            `--b\r\nContent-Disposition: form-data; name="shop_orderid"\r\n\r\n${paidId}\r\n--b\r\nContent-Disposition: form-data; name="status"\r\n\r\nsucceeded\r\n--b--\r\n`,
            { "content-type": "multipart/form-data; boundary=b" },
          ],
          ["form in utf-16", Buffer.from(succeeded(paidId), "utf16le"), { "content-type": `${FORM}; charset=utf-16` }],
          ["non-UTF-8 bytes", Buffer.concat([Buffer.from(`shop_orderid=${paidId}`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from("&status=succeeded")]), { "content-type": FORM }],
          ["a body over the parser's limit", `${succeeded(paidId)}&xml=${"%3CX%3E".repeat(100_000)}`, { "content-type": FORM }],
          ["deep XML", succeeded(paidId, [["xml", apiResponse(deep(4_000))]]), { "content-type": FORM }],
          [
            "billion laughs",
            succeeded(paidId, [["xml", apiResponse(transaction(paidId, "<CardHolderErrorMessage>&l9;</CardHolderErrorMessage>"), LAUGHS)]]),
            { "content-type": FORM },
          ],
          ["look-alike hyphen", succeeded(paidId.replace("-", "\u2010")), { "content-type": FORM }],
          ["fullwidth id", succeeded(paidId.replace(/[A-Z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))), { "content-type": FORM }],
          ["signature with t=1e3", succeeded(paidId), { "content-type": FORM, "altapay-signature": `t=1e3;s0=${"0".repeat(64)}` }],
          ["signature with spaces and a second s0", succeeded(paidId), { "content-type": FORM, "altapay-signature": `t= 10 ;s0=${"a".repeat(64)},s0=zz;s1=` }],
          ["stamp forged by the sender", succeeded(paidId), { "content-type": FORM, "x-medusa-altapay-received-at": `${Date.now()}.${"A".repeat(43)}` }],
        ]
        // Signed with the store's secret: AltaPay's own posts (or a leaked secret), for the unpaid cart.
        const signedBodies: Array<[string, string | Buffer]> = [
          ["signed, status succeeded then failed", `${succeeded(unpaidId)}&status=failed`],
          [
            "signed, status failed then succeeded",
            `${form([
              ["shop_orderid", unpaidId],
              ["status", "failed"],
            ])}&${succeeded(unpaidId)}`,
          ],
          ...["1e3", "0x10", " 10 ", "-0", "NaN", `-${total}`, `${total}000001`, "Infinity"].map((a): [string, string] => [
            `signed, amount ${JSON.stringify(a)}`,
            form([
              ["shop_orderid", unpaidId],
              ["status", "succeeded"],
              ["amount", a],
              ["currency", "DKK"],
            ]),
          ]),
          [
            "signed, amount in another currency",
            form([
              ["shop_orderid", unpaidId],
              ["status", "succeeded"],
              ["amount", total],
              ["currency", "SEK"],
            ]),
          ],
          ["signed, deep XML", succeeded(unpaidId, [["xml", apiResponse(deep(4_000))]])],
          [
            "signed, deep XML in a transaction",
            form([
              ["shop_orderid", unpaidId],
              ["status", "succeeded"],
              ["xml", apiResponse(transaction(unpaidId, deep(4_000)))],
            ]),
          ],
          [
            "signed, billion laughs",
            form([
              ["shop_orderid", unpaidId],
              ["status", "succeeded"],
              ["xml", apiResponse(transaction(unpaidId, "<X>&l9;</X>"), LAUGHS)],
            ]),
          ],
          [
            "signed, xml naming another order",
            form([
              ["shop_orderid", unpaidId],
              ["status", "succeeded"],
              ["xml", apiResponse(transaction(paidId))],
            ]),
          ],
          ["signed, unterminated xml", succeeded(unpaidId, [["xml", apiResponse(transaction(unpaidId)).slice(0, -30)]])],
          [
            "signed, non-UTF-8 bytes",
            Buffer.concat([Buffer.from(`shop_orderid=${unpaidId}`), Buffer.from([0xff, 0xc0, 0x80]), Buffer.from(`&status=succeeded&amount=${total}&currency=DKK`)]),
          ],
          ["signed, look-alike hyphen", succeeded(unpaidId.replace("-", "\u2010"))],
        ]
        const out: Answer[] = []
        for (const [what, body, headers] of unsigned) out.push(await post(what, hook, body, headers))
        for (const [what, body] of signedBodies) out.push(await post(what, hook, body, signed(body)))
        // Medusa handles each webhook about 5 s after it arrived.
        await eventsSettled(getContainer())
        return out
      })

      const tokens = [paidSession.token, unpaidSession.token]
      expect(
        answers.filter((a) => a.status >= 500 || leaks(a, tokens).length > 0).map((a) => ({ what: a.what, status: a.status, leaks: leaks(a, tokens), text: a.text.slice(0, 200) }))
      ).toEqual([])
      expect(answers.find((a) => a.what === "a body over the parser's limit")?.status).toBe(413)
      // Nothing made an order, recorded a payment or moved money.
      // Medusa's completion makes the order before it asks the provider to authorize, and deletes it when that fails;
      // the signed "succeeded" posts for the unpaid cart run at once and wait for its lock: wait until they are all done.
      const unpaidOrder = await eventually(
        () => orderForCart(container, unpaidCart.id),
        (o) => o === undefined,
        45_000,
        500
      )
      expect(await orderForCart(container, paidCart.id)).toBeUndefined()
      expect(unpaidOrder).toBeUndefined()
      expect(moneyMoved()).toEqual([])
      // The logger was listened to (the refusals are there), and no line carries a secret or a token.
      expect(lines.some((l) => /AltaPay callback refused/.test(l))).toBe(true)
      const secretLines = lines.filter((l) => [CALLBACK_SECRET, API_PASSWORD, ...tokens].some((s) => l.includes(s)))
      expect(secretLines.map((l) => l.slice(0, 300))).toEqual([])

      // The server still serves: the paid cart's customer completes it, and the order has its one payment.
      const { data } = await api.post(`/store/carts/${paidCart.id}/complete`, {}, { headers: storeHeaders(seed) })
      expect(data.type).toBe("order")
      const payments = await orderPayments(container, data.order.id)
      expect(payments.map((p) => [p.payment_session_id, Number(p.amount)])).toEqual([[paidSession.paymentSessionId, Number(paidCart.total)]])
      expect(moneyMoved()).toEqual([])
    })

    it("hostile posts at the return, verify-order and saved-card-return endpoints: 4xx or a landing, never a 5xx or a leak, no order", async () => {
      const container = getContainer()
      const cart = await createCart(api, seed)
      const session = await startSession(api, seed, cart.id)
      const id = shopOrderIdFor(session.paymentSessionId)
      const ret = "/altapay/return/altapay/success"
      const cases: Array<[string, string, string | Buffer, Record<string, string>]> = [
        ["return: repeated shop_orderid", ret, `shop_orderid=${id}&shop_orderid=payses-01OTHER&status=succeeded`, { "content-type": FORM }],
        ["return: shop_orderid as an object", ret, `shop_orderid[a]=${id}&status=succeeded`, { "content-type": FORM }],
        ["return: __proto__ keys", ret, `__proto__[shop_orderid]=${id}&constructor[prototype][x]=1&status=succeeded`, { "content-type": FORM }],
        ["return: JSON", ret, JSON.stringify({ shop_orderid: id, status: "succeeded" }), { "content-type": "application/json" }],
        ["return: text/plain", ret, `shop_orderid=${id}&status=succeeded`, { "content-type": "text/plain" }],
        ["return: multipart", ret, `--b\r\nContent-Disposition: form-data; name="shop_orderid"\r\n\r\n${id}\r\n--b--\r\n`, { "content-type": "multipart/form-data; boundary=b" }],
        ["return: non-UTF-8 bytes", ret, Buffer.concat([Buffer.from("shop_orderid="), Buffer.from([0xff, 0xfe]), Buffer.from("&status=succeeded")]), { "content-type": FORM }],
        ["return: look-alike hyphen", ret, `shop_orderid=${encodeURIComponent(id.replace("-", "\u2010"))}&status=succeeded`, { "content-type": FORM }],
        ["return: over the limit", ret, `shop_orderid=${id}&xml=${"a".repeat(200_000)}`, { "content-type": FORM }],
        ["return: unknown kind", "/altapay/return/altapay/..%2f..%2fadmin", `shop_orderid=${id}`, { "content-type": FORM }],
        ["return: unknown registration", "/altapay/return/nope/success", `shop_orderid=${id}`, { "content-type": FORM }],
        [
          "verify-order: hostile XML",
          "/altapay/verify-order/altapay",
          form([
            ["shop_orderid", id],
            ["xml", apiResponse(deep(4_000), LAUGHS)],
          ]),
          { "content-type": FORM },
        ],
        ["verify-order: JSON", "/altapay/verify-order/altapay", JSON.stringify({ shop_orderid: [id, id] }), { "content-type": "application/json" }],
        [
          "saved-card-return: hostile",
          "/altapay/saved-card-return/altapay/success",
          `shop_orderid=${id}&shop_orderid=x&type=subscription_payment&transaction_id=zz`,
          { "content-type": FORM },
        ],
      ]
      // AltaPay's own signed return post with hostile XML: a failure whose message must be shown comes from the xml.
      const xxeBody = form([
        ["shop_orderid", id],
        ["status", "failed"],
        ["cardholder_message_must_be_shown", "true"],
        ["xml", apiResponse(`<CardHolderErrorMessage>&xxe;&l3;</CardHolderErrorMessage><CardHolderMessageMustBeShown>true</CardHolderMessageMustBeShown>`, LAUGHS)],
      ])
      const deepBody = form([
        ["shop_orderid", id],
        ["status", "failed"],
        ["xml", apiResponse(`<CardHolderErrorMessage>${deep(4_000)}</CardHolderErrorMessage>`)],
      ])

      const { value: answers, lines } = await logged(container, async () => {
        const out: Answer[] = []
        for (const [what, path, body, headers] of cases) out.push(await post(what, path, body, headers))
        out.push(await post("return: signed, external entity and entity expansion", ret, xxeBody, signed(xxeBody)))
        out.push(await post("return: signed, deep XML", ret, deepBody, signed(deepBody)))
        return out
      })

      const tokens = [session.token]
      expect(
        answers.filter((a) => a.status >= 500 || leaks(a, tokens).length > 0).map((a) => ({ what: a.what, status: a.status, leaks: leaks(a, tokens), text: a.text.slice(0, 200) }))
      ).toEqual([])
      // What the signed return shows the customer carries no file of this machine and no expanded entity.
      const xxe = answers.find((a) => a.what.startsWith("return: signed, external"))!
      expect(decodeURIComponent(xxe.location ?? xxe.text)).not.toMatch(/root:|lollollol/)
      expect(answers.find((a) => a.what === "return: repeated shop_orderid")?.status).toBe(400)
      expect(await orderForCart(container, cart.id)).toBeUndefined()
      expect(moneyMoved()).toEqual([])
      expect(lines.filter((l) => [CALLBACK_SECRET, API_PASSWORD, ...tokens].some((s) => l.includes(s))).map((l) => l.slice(0, 300))).toEqual([])
    })

    it("a customer who changes their own AltaPay session (1.00 DKK captured at once; the total in SEK) and pays gets no order, though AltaPay signs the callback and the return", async () => {
      const container = getContainer()
      const oneLine = (value: number, currency: string) => ({
        amount: { value, currency },
        orderLines: [{ description: "All", itemId: "all", quantity: 1, unitPrice: value, taxAmount: 0 }],
      })
      const variants: Array<[string, (total: number) => Record<string, unknown>]> = [
        ["1.00 DKK, captured at once", () => ({ order: oneLine(1, "DKK"), configuration: { autoCapture: true } })],
        ["the total in SEK", (total) => ({ order: oneLine(total, "SEK") })],
        ["1.00 DKK, reserved", () => ({ order: oneLine(1, "DKK") })],
      ]
      const carts: Array<{ what: string; cartId: string; sessionId: string; landing?: string | null; transactionId?: string }> = []
      for (const [what, patch] of variants) {
        const cart = await createCart(api, seed)
        const session = await startSession(api, seed, cart.id)
        await changeAltaPaySession(session, patch(Number(cart.total)))
        // AltaPay's page, its signed notification callback and its signed return post, as for any payment.
        const paid = await payWithAltaPay(session)
        carts.push({
          what,
          cartId: cart.id,
          sessionId: session.paymentSessionId,
          landing: paid.returnUrl,
          transactionId: store.sandbox().payment(paid.paymentId)?.transactionId as string,
        })
      }
      await eventsSettled(getContainer())

      const seen = []
      for (const c of carts) {
        const { data } = await container
          .resolve(ContainerRegistrationKeys.QUERY)
          .graph({ entity: "payment_session", fields: ["status", "amount", "currency_code"], filters: { id: c.sessionId } })
        seen.push({
          what: c.what,
          order: (await orderForCart(container, c.cartId)) ? "order" : "none",
          session: (data[0] as { status: string }).status === "authorized" ? "authorized" : "not authorized",
          landing: /outcome=paid/.test(c.landing ?? "") ? "paid" : "not paid",
          altapay: store.sandbox().transaction(c.transactionId!)?.status,
        })
      }
      expect(seen).toEqual([
        { what: "1.00 DKK, captured at once", order: "none", session: "not authorized", landing: "not paid", altapay: "captured" },
        { what: "the total in SEK", order: "none", session: "not authorized", landing: "not paid", altapay: "preauth" },
        { what: "1.00 DKK, reserved", order: "none", session: "not authorized", landing: "not paid", altapay: "preauth" },
      ])
      // Medusa moved no money for them: the only capture is the one the customer's own session asked AltaPay for.
      expect(moneyMoved()).toEqual([])
    })
  },
})
