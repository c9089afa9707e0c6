/**
 * Header ErrorCodes the sandbox uses for structural problems (AltaPay's own values are not
 * published). Business refusals keep ErrorCode 0 and say so in Body/Result instead.
 */
export const GatewayErrorCode = {
  /** The path names no merchant API method (HTTP 404). */
  UNKNOWN_METHOD: 1,
  /** A required parameter is missing (transaction_id; any filter for `payments`). */
  MISSING_PARAMETER: 2,
  /** A parameter is malformed: transaction_id pattern, amount, allow_over_refund, identifier length, order-line fields. */
  INVALID_PARAMETER: 3,
  /** No transaction has that transaction_id. */
  UNKNOWN_TRANSACTION: 4,
  /** Injected by the "error-code" fault. */
  INJECTED: 99,
} as const
