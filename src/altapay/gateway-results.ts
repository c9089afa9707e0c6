/** Reading a gateway answer's outcome: its result, the current transaction, a status group. */
import { FAILED_RESULTS, type GatewayResponse, type GatewayTransaction } from "./gateway-types"
import { normalise } from "./xml-readers"

/**
 * With several Transaction nodes AltaPay's current record is the one created last; ties (and
 * records without a CreatedDate) go to the one later in the document.
 */
export function latestTransaction(transactions: GatewayTransaction[]): GatewayTransaction | undefined {
  let latest: GatewayTransaction | undefined
  for (const transaction of transactions) {
    if (!latest || createdAt(transaction) >= createdAt(latest)) latest = transaction
  }
  return latest
}

export const isSuccessResult = (result?: string): boolean => normalise(result) === "success"
export const isOpenResult = (result?: string): boolean => normalise(result) === "open"
/** Fail, Failed, Error, Cancelled, Incomplete (case-insensitive). PartialSuccess is not a failure. */
export const isFailedResult = (result?: string): boolean => (FAILED_RESULTS as readonly string[]).includes(normalise(result))

/** The call's result: Body/Result, else the older per-method elements (RefundResult, ...). */
export const resultOf = (response: GatewayResponse): string | undefined => response.result ?? response.refundResult ?? response.captureResult ?? response.releaseResult

/** Case-insensitive membership of a TransactionStatus in a group such as CAPTURED_STATUSES. */
export const statusIn = (status: string | undefined, group: readonly string[]): boolean => group.includes(normalise(status))

const createdAt = (transaction: GatewayTransaction): number => transaction.createdDate?.getTime() ?? Number.NEGATIVE_INFINITY
