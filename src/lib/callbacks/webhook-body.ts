/**
 * The raw body of Medusa's `payment.webhook_received` event as a Buffer, as Medusa's own subscriber
 * restores it: the local event bus hands the Buffer over as it is, the Redis event bus as its JSON
 * (`{ type: "Buffer", data: [...] }`).
 */
export function webhookRawBody(raw: unknown): Buffer {
  if (Buffer.isBuffer(raw)) return raw
  if (typeof raw === "string") return Buffer.from(raw, "utf8")
  if (raw && typeof raw === "object" && (raw as { type?: unknown }).type === "Buffer" && Array.isArray((raw as { data?: unknown }).data)) {
    return Buffer.from((raw as { data: number[] }).data)
  }
  return Buffer.alloc(0)
}
