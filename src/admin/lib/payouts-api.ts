/**
 * The payouts admin routes (AltaPay funding files, their lines, the exceptions finance acts on,
 * and the import run on demand). Bodies carry the payouts module's objects as they are.
 */
import type { ListedExceptionKind as ExceptionKind, ListedPayoutException as PayoutException } from "../../lib/payouts/chargeback-exceptions"
import type { FundingFileSummary, FundingLineView, MatchResult } from "../../modules/altapay-payouts/types"
import { en } from "../i18n/en"
import { adminFetch } from "./admin-fetch"
import type { UnfundedAfterDays } from "./format"

export type { FundingFileSummary, FundingLineView, MovementPayout } from "../../modules/altapay-payouts/types"
export type { ExceptionKind, PayoutException }

/** The kinds in finance's order; typed by the module's list, so a new kind fails the admin's typecheck until the catalogue names it (src/admin/i18n/en.ts). */
export const EXCEPTION_KINDS = Object.keys(en.payouts.exceptions.kinds) as ExceptionKind[]

export const FILES_PAGE_SIZE = 20
export const LINES_PAGE_SIZE = 50
export const EXCEPTIONS_PAGE_SIZE = 50

interface Paged {
  count: number
  limit: number
  offset: number
}

export interface PayoutFilesResponse extends Paged {
  files: FundingFileSummary[]
}
export interface PayoutFileResponse {
  file: FundingFileSummary
}
export interface PayoutLinesResponse extends Paged {
  lines: FundingLineView[]
}
export interface PayoutExceptionsResponse extends Paged {
  exceptions: PayoutException[]
  /** Days after which a capture or refund with no payout is an exception: per registration (the route's shape), or one number. */
  unfundedAfterDays: UnfundedAfterDays
}

export interface PayoutImportAccount {
  account: string
  providerIds: string[]
  filesImported: number
  filesSkipped: number
  filesBeforeReconcileFrom: number
  linesImported: number
  movementsRecorded: number
  matched: MatchResult
  problems: string[]
  notices: string[]
}
export interface PayoutImportResponse {
  accounts: PayoutImportAccount[]
}

const page = (offset: number, limit: number) => `limit=${limit}&offset=${offset}`
const kindsQuery = (kinds: ExceptionKind[]) => kinds.map((k) => `kind=${encodeURIComponent(k)}`).join("&")
const fileBase = (id: string) => `/admin/altapay/payouts/${encodeURIComponent(id)}`

export const payoutsQueryKey = ["altapay", "payouts"] as const

export const listPayoutFiles = (offset: number) => adminFetch<PayoutFilesResponse>(`/admin/altapay/payouts?${page(offset, FILES_PAGE_SIZE)}`)

export const getPayoutFile = (id: string) => adminFetch<PayoutFileResponse>(fileBase(id)).then((r) => r.file)

export const listPayoutLines = (id: string, offset: number) => adminFetch<PayoutLinesResponse>(`${fileBase(id)}/lines?${page(offset, LINES_PAGE_SIZE)}`)

export const listPayoutExceptions = (kinds: ExceptionKind[], offset: number) =>
  adminFetch<PayoutExceptionsResponse>(`/admin/altapay/payout-exceptions?${[kindsQuery(kinds), page(offset, EXCEPTIONS_PAGE_SIZE)].filter(Boolean).join("&")}`)

export const importPayoutsNow = () => adminFetch<PayoutImportResponse>("/admin/altapay/payouts/import", { method: "POST", body: {} })

export const payoutsExportPath = "/admin/altapay/payouts/export"

export const payoutFileExportPath = (id: string) => `${fileBase(id)}/export`

export const payoutExceptionsExportPath = (kinds: ExceptionKind[]) => `/admin/altapay/payout-exceptions/export${kinds.length ? `?${kindsQuery(kinds)}` : ""}`
