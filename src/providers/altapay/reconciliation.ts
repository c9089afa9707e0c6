import { randomUUID } from "node:crypto"

const RECONCILIATION_PREFIX = "medusa"

/** Deterministic per Medusa capture/refund id, so a lost answer can be found again at AltaPay. */
export function reconciliationId(kind: "capture" | "refund", medusaId: string | undefined): string {
  return `${RECONCILIATION_PREFIX}-${kind}-${medusaId ?? randomUUID()}`.slice(0, 100)
}

/** Whether AltaPay knows a movement by an identifier this plugin gave a capture or refund. */
export function isOwnReconciliationId(kind: "capture" | "refund", id: string): boolean {
  return id.startsWith(`${RECONCILIATION_PREFIX}-${kind}-`)
}
