export { FundingFile } from "./funding-file"
export { FundingLine } from "./funding-line"
export { MoneyMovement } from "./money-movement"
export { PayoutCursor } from "./payout-cursor"
