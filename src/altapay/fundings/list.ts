/**
 * Reads the Body of a `fundingList` answer: `<Fundings numberOfPages="n">` of `<Funding>`
 * elements (fundingList and Fundings pages of AltaPay's documentation; AltaPay/sdk-php
 * AltapayAPIFunding). Every Funding is checked with zod; one that does not fit is an error naming
 * the funding, never a half-read payout.
 */
import { z } from "zod"
import type { Funding } from "./types"
import { currencyInfo, decimalToMinor } from "../money"
import { attr, describeIssues, list, obj, str, type Raw } from "../xml-readers"

const DAY = /^\d{4}-\d{2}-\d{2}$/
/** `50.00 EUR`: an exact decimal, whitespace, an ISO 4217 code (the SDK splits on the first space). */
const AMOUNT_WITH_CURRENCY = /^(-?\d+(?:\.\d+)?)\s+([A-Za-z]{3}|\d{3})$/

const fundingSchema = z.object({
  Filename: z.string({ error: "is missing" }),
  ContractIdentifier: z.string().optional(),
  FundingType: z.string().optional(),
  Shops: z.array(z.string()),
  Acquirer: z.string().optional(),
  FundingDate: z.string({ error: "is missing" }).regex(DAY, { error: "is not YYYY-MM-DD" }),
  Amount: z.string({ error: "is missing" }).regex(AMOUNT_WITH_CURRENCY, { error: 'is not "<amount> <currency>"' }),
  CreatedDate: z.string().regex(DAY, { error: "is not YYYY-MM-DD" }).optional(),
  DownloadLink: z.url({ protocol: /^https?$/, error: "is not an http(s) URL" }),
  ReferenceText: z.string().optional(),
  AccountNumber: z.string().optional(),
})

/** Thrown for a page we cannot read; the caller turns it into AltaPayBadResponseError. */
export class FundingListShapeError extends Error {}

export function readFundingList(body: Raw, page: number): { numberOfPages: number; fundings: Funding[] } {
  const fundingsNode = obj(body.Fundings)
  if (body.Fundings === undefined) throw new FundingListShapeError("Body has no Fundings element")
  const pagesText = attr(body.Fundings, "numberOfPages") ?? "0"
  if (!/^\d{1,9}$/.test(pagesText)) throw new FundingListShapeError(`Fundings numberOfPages "${pagesText}" is not a whole number`)
  const fundings = list(fundingsNode?.Funding).map((node, index) => readFunding(node, index, page))
  return { numberOfPages: Number(pagesText), fundings }
}

function readFunding(node: unknown, index: number, page: number): Funding {
  const raw = obj(node) ?? {}
  const text = (name: string): string | undefined => str(raw[name])
  const candidate = {
    Filename: text("Filename"),
    ContractIdentifier: text("ContractIdentifier"),
    FundingType: text("FundingType"),
    Shops: list(obj(raw.Shops)?.Shop)
      .map((shop) => str(shop))
      .filter((shop): shop is string => shop !== undefined),
    Acquirer: text("Acquirer"),
    FundingDate: text("FundingDate"),
    Amount: text("Amount"),
    CreatedDate: text("CreatedDate"),
    // The documented example pads the link with whitespace; str() trims it.
    DownloadLink: text("DownloadLink"),
    ReferenceText: text("ReferenceText"),
    AccountNumber: text("AccountNumber"),
  }
  const parsed = fundingSchema.safeParse(candidate)
  const name = candidate.Filename ? `Funding "${candidate.Filename}"` : `Funding ${index + 1} of page ${page}`
  if (!parsed.success) throw new FundingListShapeError(`${name}: ${describeIssues(parsed.error)}`)
  const f = parsed.data
  const [, decimal, code] = AMOUNT_WITH_CURRENCY.exec(f.Amount) as RegExpExecArray
  let currency: string
  let amountMinor: number
  try {
    currency = currencyInfo(code).alpha
    amountMinor = decimalToMinor(decimal, currency, "Amount")
  } catch (error) {
    throw new FundingListShapeError(`${name}: Amount "${f.Amount}" ${(error as Error).message}`)
  }
  return {
    filename: f.Filename,
    contractIdentifier: f.ContractIdentifier ?? "",
    ...(f.FundingType ? { fundingType: f.FundingType } : {}),
    shops: f.Shops,
    acquirer: f.Acquirer ?? "",
    fundingDate: f.FundingDate,
    amountMinor,
    currency,
    createdDate: f.CreatedDate ?? f.FundingDate,
    downloadLink: f.DownloadLink,
    ...(f.ReferenceText ? { referenceText: f.ReferenceText } : {}),
    ...(f.AccountNumber ? { accountNumber: f.AccountNumber } : {}),
  }
}
