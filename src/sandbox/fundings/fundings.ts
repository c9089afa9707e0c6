/**
 * The sandbox's payouts: funding files made from the captures and refunds it performed (their
 * reconciliation identifiers) once a settlement delay has passed, plus files added whole (the
 * example files, a test's own CSV). A file never changes once made, as a real payout does not.
 */
import { currencyInfo, minorToDecimal } from "../../altapay/money"
import { canConvert, convert, exchangeRate, fees, fundingCsv, netOf, type SandboxFundingLine } from "./funding-file"
import { generatedAmount, generatedSpec, type GeneratedFundingInput, type GeneratedFundingSpec } from "./generated-fundings"
import type { Store, StoredTransaction } from "../state"

export const FUNDINGS_PER_PAGE = 100
export const DEFAULT_FUNDING_DELAY_MS = 24 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

export interface FundingConfig {
  /** Time from a capture or refund to its funding file; false: the sandbox makes none by itself. */
  delayMs: number | false
  /** Currency the bank account is paid in; other currencies are converted at a fixed table's rates. */
  currency: string
  /** Add an `unknown` line (no transaction) to every file made from captures, as acquirers do. */
  unknownLine: boolean
}

export interface StoredFunding {
  id: string
  filename: string
  fundingType?: string
  shops: string[]
  fundingDate: string
  createdDate: string
  currency: string
  /** What reached the bank: settlement amounts less fees. */
  amountMinor: number
  /** The CSV served; absent on a generated file, whose CSV is written as it is sent. */
  csv?: string
  /** What a generated file's lines are made from (addGenerated). */
  generated?: GeneratedFundingSpec
  createdAt: number
}

/** A funding file given whole: its CSV is served as it is (a test's malformed line, the examples). */
export interface FundingFileInput {
  csv: string
  currency: string
  amountMinor: number
  filename?: string
  fundingDate?: string
  shops?: string[]
  fundingType?: string
}

/** A generated file (lines, first index, currency, date, identifier prefixes) and, optionally, its name, shops, type. */
export type GeneratedFundingFileInput = GeneratedFundingInput & Omit<FundingFileInput, "csv" | "amountMinor" | "currency">

export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

export class FundingBook {
  private readonly files: StoredFunding[] = []
  /** `${transactionId}#${index}` of reconciliation entries already in a file. */
  private readonly funded = new Set<string>()
  private readonly rejected = new Set<string>()
  private lineSeq = 0

  constructor(readonly config: FundingConfig) {
    currencyInfo(config.currency)
  }

  /** The capture or refund with this reconciliation identifier comes back rejected by the acquirer. */
  reject(reconciliationIdentifier: string): void {
    this.rejected.add(reconciliationIdentifier)
  }

  add(input: FundingFileInput, now: number): StoredFunding {
    return this.store(input, { csv: input.csv }, now)
  }

  /** A file of generated lines (generated-fundings.ts): its amount is their net, its CSV made on each download. */
  addGenerated(input: GeneratedFundingFileInput, now: number): StoredFunding {
    const { lines, firstIndex, currency, date, paymentPrefix, refundPrefix, ...meta } = input
    const spec = generatedSpec({ lines, firstIndex, currency, date, paymentPrefix, refundPrefix }, dayOf(now))
    return this.store({ ...meta, currency: spec.currency, amountMinor: generatedAmount(spec) }, { generated: spec }, now)
  }

  private store(input: Omit<FundingFileInput, "csv">, body: Pick<StoredFunding, "csv" | "generated">, now: number): StoredFunding {
    const currency = currencyInfo(input.currency).alpha
    const id = String(this.files.length + 1)
    const fundingDate = input.fundingDate ?? dayOf(now)
    const file: StoredFunding = {
      id,
      filename: input.filename ?? `Sandbox_Shop_${fundingDate}_${id.padStart(4, "0")}_${currency}`,
      ...(input.fundingType ? { fundingType: input.fundingType } : {}),
      shops: input.shops ?? ["AltaPay Sandbox Shop"],
      fundingDate,
      createdDate: dayOf(now),
      currency,
      amountMinor: input.amountMinor,
      ...body,
      createdAt: now,
    }
    this.files.push(file)
    return file
  }

  /** A file from lines: its amount is their net (settlement plus the negative fees). */
  addLines(
    lines: SandboxFundingLine[],
    meta: Omit<FundingFileInput, "csv" | "amountMinor" | "currency"> & { currency: string; extraColumns?: string[] },
    now: number
  ): StoredFunding {
    const amountMinor = lines.reduce((sum, line) => sum + netOf(line), 0)
    return this.add({ ...meta, csv: fundingCsv(lines, meta.extraColumns), amountMinor }, now)
  }

  /**
   * Makes the funding files that are due: every capture and refund whose delay has passed and is
   * in no file yet, one file per settlement currency. Called before each fundingList answer.
   */
  settle(store: Store, now: number): StoredFunding[] {
    if (this.config.delayMs === false) return []
    const due = new Map<string, SandboxFundingLine[]>()
    const shops = new Map<string, Set<string>>()
    for (const t of store.transactions.values()) {
      t.reconciliation.forEach((entry, index) => {
        const key = `${t.transactionId}#${index}`
        if (this.funded.has(key) || entry.at + (this.config.delayMs as number) > now) return
        this.funded.add(key)
        const line = this.lineFor(t, entry, now)
        due.set(line.settlementCurrency, [...(due.get(line.settlementCurrency) ?? []), line])
        shops.set(line.settlementCurrency, (shops.get(line.settlementCurrency) ?? new Set()).add(t.shop))
      })
    }
    return [...due.entries()].map(([currency, lines]) => {
      if (this.config.unknownLine) lines.push(this.unknownLine(currency, now))
      return this.addLines(lines, { currency, shops: [...(shops.get(currency) ?? [])] }, now)
    })
  }

  /** Page `page` (0 first), oldest file first, FUNDINGS_PER_PAGE a page. */
  page(page: number): { numberOfPages: number; files: StoredFunding[] } {
    const numberOfPages = Math.ceil(this.files.length / FUNDINGS_PER_PAGE)
    return { numberOfPages, files: this.files.slice(page * FUNDINGS_PER_PAGE, (page + 1) * FUNDINGS_PER_PAGE) }
  }

  get(id: string): StoredFunding | undefined {
    return this.files.find((file) => file.id === id)
  }

  all(): StoredFunding[] {
    return [...this.files]
  }

  private nextLineId(): string {
    return `SBX${String(++this.lineSeq).padStart(9, "0")}`
  }

  private lineFor(t: StoredTransaction, entry: StoredTransaction["reconciliation"][number], now: number): SandboxFundingLine {
    const from = t.currency.alpha
    const to = canConvert(from, this.config.currency) ? this.config.currency : from
    const kind = entry.type === "captured" ? "payment" : "refund"
    const sign = kind === "payment" ? 1 : -1
    const rejected = this.rejected.has(entry.id)
    const settlement = rejected ? 0 : sign * convert(entry.amountMinor, from, to)
    return {
      // The settlement date: the bank day after the capture or refund (never after the payout).
      date: dayOf(Math.min(entry.at + DAY_MS, now)),
      type: rejected ? `${kind}_rejected` : kind,
      id: this.nextLineId(),
      transaction: {
        reconciliationIdentifier: entry.id,
        // The Payment column holds the gateway's TransactionId, as in AltaPay's sample files.
        paymentId: t.transactionId,
        shopOrderId: t.shopOrderId,
        terminal: t.terminal,
        shop: t.shop,
        currency: from,
        amountMinor: sign * entry.amountMinor,
        exchangeRate: exchangeRate(from, to),
      },
      settlementCurrency: to,
      settlementAmountMinor: settlement,
      ...(rejected ? {} : { fees: fees(settlement, to, kind) }),
    }
  }

  private unknownLine(currency: string, now: number): SandboxFundingLine {
    // A small correction the acquirer does not explain, tied to no transaction.
    const amount = 10 ** Math.max(0, currencyInfo(currency).exponent - 1)
    return { date: dayOf(now), type: "unknown", id: this.nextLineId(), settlementCurrency: currency, settlementAmountMinor: amount }
  }
}

/** `50.00 EUR`, as fundingList writes a funding's Amount. */
export const amountText = (file: StoredFunding): string => `${minorToDecimal(file.amountMinor, file.currency)} ${file.currency}`
