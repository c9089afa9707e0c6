/**
 * AltaPay's payouts: `fundingList` and `fundingDownload` (api.ts), the list's XML read (list.ts),
 * the funding file read as it streams (csv.ts) and the shapes both read into (types.ts).
 */
export { FundingsApi } from "./api"
export * from "./types"
export { FUNDING_COLUMNS, readFundingFile } from "./csv"
export { readFundingList } from "./list"
