/**
 * AltaPay order lines: exact decimals (exact.ts), line totals (totals.ts), the reference's rules
 * (validation.ts), text limits (text.ts), rounding that adds up (allocation.ts), building from a
 * cart (source.ts, entry-lines.ts, build.ts), lines for part of an order (partial.ts), item-level
 * refunds (item-refunds.ts), a return fee kept on one (return-fees.ts) and the wire formats
 * (wire.ts). Lines stay in integer minor units.
 */
export { plainNumberText } from "./exact"
export { ORDER_LINE_LIMITS, textLength, truncateText } from "./text"
export { lineTaxMinor, lineTotalMinor, orderLinesTotalMinor } from "./totals"
export { orderLineIssues, validateOrderLines, type ValidateOrderLinesOptions } from "./validation"
export type { ExactMinor, OrderLineSource, OrderLineSourceAdjustment, OrderLineSourceCredit, OrderLineSourceItem, OrderLineSourceShipping } from "./source"
export { CREDIT_ITEM_ID_PREFIX, buildOrderLineSet, buildOrderLines, entryTotalsMinor, isCreditLine, sourceTotalMinor, type BuiltEntry, type BuiltOrderLines } from "./build"
export type { EntryLines } from "./entry-lines"
export { proportionalAdjustmentLine, withCompensationLine } from "./partial"
export { ItemRefundError, planItemRefund, refundedQuantities, type ItemRefundInput, type ItemRefundPlan, type ItemRefundRequest, type RefundedItem } from "./item-refunds"
export { TAX_PERCENT_DECIMALS, fromCheckoutOrderLines, orderLineWireAmounts, toCheckoutOrderLines, toGatewayOrderLineFields, type CheckoutOrderLine } from "./wire"
export { mapReservation, pairReservation, reservedCredits, reservedLines, type PairedReservation, type ReservationMap, type ReservedEntry } from "./reservation-map"
export {
  ItemCaptureError,
  planItemCapture,
  planRemainingCapture,
  remainingMinor,
  unitLines,
  type CapturedItem,
  type CapturedSoFar,
  type ItemCaptureInput,
  type ItemCapturePlan,
  type ItemCaptureRequest,
} from "./item-captures"
export { matchCaptureAmount, type AmountCaptureMatch } from "./amount-captures"
export { planReservedRefund, type ReservedRefundInput } from "./reserved-refunds"
export { RETURN_FEE_ITEM_ID, keptReturnFeesMinor, withReturnFee, type ItemRefundWithFee, type ReturnFeeLine, type ReturnFeeRequest } from "./return-fees"
