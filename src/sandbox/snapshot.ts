/** `sandbox.transaction(id)`: a copy of a gateway transaction as tests read it. */
import type { AuthType, MoneyOperation, PaymentNature, StoredTransaction, TransactionStatus } from "./state"

export interface TransactionSnapshot {
  transactionId: string
  paymentId: string
  shopOrderId: string
  terminal: string
  authType: AuthType
  status: TransactionStatus
  currency: string
  reservedMinor: number
  capturedMinor: number
  refundedMinor: number
  reconciliationIdentifiers: Array<{ id: string; amountMinor: number; type: "captured" | "refunded"; at: number }>
  /** Operations answered `Open` (fault "open"): recorded, no money moved. */
  pending: Array<{ type: "capture" | "refund" | "release"; amountMinor: number; reconciliationIdentifier?: string; at: number }>
  /** The PaymentNature the gateway writes: CreditCard, Wallet, or Invoice on the invoice terminal. */
  nature: PaymentNature
  /** Captures and refunds answered Success, with invoice_number, sales_tax, orderLines and trackingInfo as sent. */
  captures: MoneyOperation[]
  refunds: MoneyOperation[]
  /** Invoice terminal: the reserved order lines (as text), whether each was captured and how much of it is refunded. */
  invoiceLines?: Array<{ fields: Record<string, string>; captured: boolean; refundedQuantity: string }>
  createdAt: number
  updatedAt: number
}

export function transactionSnapshot(t: StoredTransaction): TransactionSnapshot {
  return structuredClone({
    transactionId: t.transactionId,
    paymentId: t.paymentId,
    shopOrderId: t.shopOrderId,
    terminal: t.terminal,
    authType: t.authType,
    status: t.status,
    currency: t.currency.alpha,
    reservedMinor: t.reservedMinor,
    capturedMinor: t.capturedMinor,
    refundedMinor: t.refundedMinor,
    reconciliationIdentifiers: t.reconciliation,
    pending: t.pending,
    nature: t.nature,
    captures: t.captures,
    refunds: t.refunds,
    ...(t.invoice ? { invoiceLines: t.invoice.lines } : {}),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  })
}
