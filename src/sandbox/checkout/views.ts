/** JSON views of the checkout API's records (what GET /session and GET /payment return). */
import { minorToNumber } from "../../altapay/money"
import type { StoredLink, StoredPayment, StoredSession } from "../state"

export function sessionJson(session: StoredSession): Record<string, unknown> {
  return {
    ...session.body,
    sessionId: session.sessionId,
    callbacks: session.body.callbacks ?? {},
    configuration: session.body.configuration ?? {},
    status: session.status,
    payments: [...session.paymentIds],
    createdAt: new Date(session.createdAt).toISOString(),
    updatedAt: new Date(session.updatedAt).toISOString(),
  }
}

export function paymentJson(payment: StoredPayment): Record<string, unknown> {
  return {
    paymentId: payment.paymentId,
    sessionId: payment.sessionId,
    shopOrderId: payment.shopOrderId,
    status: payment.status,
    paymentMethodId: payment.paymentMethodId,
    terminal: payment.terminal,
    amount: { value: minorToNumber(payment.amountMinor, payment.currency.alpha), currency: payment.currency.alpha },
    ...(payment.transactionId ? { transactionId: payment.transactionId } : {}),
    ...(payment.authType ? { authType: payment.authType } : {}),
    ...(payment.maskedPan ? { maskedPan: payment.maskedPan } : {}),
    ...(payment.cardScheme ? { cardScheme: payment.cardScheme } : {}),
    ...(payment.reason ? { reason: payment.reason } : {}),
    createdAt: new Date(payment.createdAt).toISOString(),
    updatedAt: new Date(payment.updatedAt).toISOString(),
  }
}

export function linkJson(link: StoredLink, origin: string): Record<string, unknown> {
  const paymentLink = `${origin}/sandbox/link/${link.id}`
  // CreatePaymentLink: "Response will contain id, paymentLink and qrCode fields", nothing else.
  return { id: link.id, paymentLink, qrCode: qrPlaceholder(paymentLink) }
}

// Not a scannable QR code: an SVG data URL that shows the link, enough for UIs to render something.
function qrPlaceholder(text: string): string {
  const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;")
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60"><rect width="240" height="60" fill="#fff" stroke="#000"/><text x="6" y="34" font-size="8">${escaped}</text></svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`
}
