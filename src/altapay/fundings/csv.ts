/**
 * Reads a funding file (AltaPay's fundingDownload CSV) as it streams: csv-parse splits records,
 * this file maps the header to AltaPay's documented columns and each record to a FundingLine with
 * exact money in minor units. A line that does not read is yielded as an issue with its line
 * number and the file goes on; a Type or a column AltaPay does not document is kept, not fatal.
 * Only a file without a usable header, or one cut inside a quoted cell, stops the read (after
 * yielding the lines before the cut).
 */
import { Readable, pipeline } from "node:stream"
import { StringDecoder } from "node:string_decoder"
import { parse, type Info } from "csv-parse"
import { z } from "zod"
import { FUNDING_LINE_TYPES, type FundingFileEntry, type FundingLine } from "./types"
import { currencyInfo, decimalToMinor } from "../money"

/** The documented columns (fundingDownload page; Gateway Services page), by our field name. */
export const FUNDING_COLUMNS = {
  date: "Date",
  type: "Type",
  id: "ID",
  reconciliationIdentifier: "Reconciliation Identifier",
  paymentId: "Payment",
  shopOrderId: "Order",
  terminal: "Terminal",
  shop: "Shop",
  transactionCurrency: "Transaction Currency",
  transactionAmount: "Transaction Amount",
  exchangeRate: "Exchange Rate",
  settlementCurrency: "Settlement Currency",
  settlementAmount: "Settlement Amount",
  fixedFee: "Fixed Fee",
  fixedFeeVat: "Fixed Fee VAT",
  rateBasedFee: "Rate Based Fee",
  rateBasedFeeVat: "Rate Based Fee VAT",
} as const
type Field = keyof typeof FUNDING_COLUMNS

const REQUIRED: readonly Field[] = ["date", "type", "settlementCurrency", "settlementAmount"]
const BY_HEADER = new Map(Object.entries(FUNDING_COLUMNS).map(([field, header]) => [header.toLowerCase(), field as Field]))
const KNOWN_TYPES = new Set<string>(FUNDING_LINE_TYPES)
const DELIMITERS = [",", ";", "\t"] as const
const MAX_HEADER_CHARS = 64 * 1024
const MAX_RECORD_CHARS = 64 * 1024

/** The file cannot be read at all (no header, cut short); api.ts turns it into AltaPayBadResponseError. */
export class FundingFileError extends Error {
  constructor(
    message: string,
    readonly line?: number
  ) {
    super(message)
  }
}

const decimal = (comma: boolean) => (comma ? /^[+-]?\d+(?:[.,]\d+)?$/ : /^[+-]?\d+(?:\.\d+)?$/)
const optional = (schema: z.ZodType<string>) => schema.optional()

function lineSchema(comma: boolean) {
  const amount = z.string().regex(decimal(comma), { error: "is not a decimal number" })
  return z.object({
    // "YYYY-MM-DD" is documented; a time after it is tolerated and dropped.
    date: z.string({ error: "is empty" }).regex(/^\d{4}-\d{2}-\d{2}(?:[T ][\d:.+\-Z]+)?$/, { error: "is not YYYY-MM-DD" }),
    type: z.string({ error: "is empty" }),
    id: optional(z.string()),
    reconciliationIdentifier: optional(z.string().max(100, { error: "is longer than 100 characters" })),
    paymentId: optional(z.string()),
    shopOrderId: optional(z.string()),
    terminal: optional(z.string()),
    shop: optional(z.string()),
    transactionCurrency: optional(z.string()),
    transactionAmount: optional(amount),
    exchangeRate: optional(amount),
    settlementCurrency: z.string({ error: "is empty" }),
    settlementAmount: optional(amount),
    fixedFee: optional(amount),
    fixedFeeVat: optional(amount),
    rateBasedFee: optional(amount),
    rateBasedFeeVat: optional(amount),
  })
}

/** Which of `,` `;` tab splits the header into the most documented column names (the docs say comma). */
export function detectDelimiter(headerLine: string): string {
  let best: string = DELIMITERS[0]
  let bestScore = -1
  for (const delimiter of DELIMITERS) {
    const score = headerLine.split(delimiter).filter((cell) => BY_HEADER.has(clean(cell).toLowerCase())).length
    if (score > bestScore) [best, bestScore] = [delimiter, score]
  }
  return best
}

const clean = (cell: string): string =>
  cell
    .replace(/^\uFEFF/, "")
    .trim()
    .replace(/^"(.*)"$/, "$1")
    .trim()

/** Text chunks of the body, header first: `head` is what was read to find the delimiter. */
async function* textOf(head: string, rest: AsyncIterator<Buffer | string>, decoder: StringDecoder): AsyncGenerator<string> {
  if (head) yield head
  for (;;) {
    const next = await rest.next()
    if (next.done) break
    yield typeof next.value === "string" ? next.value : decoder.write(next.value)
  }
  const tail = decoder.end()
  if (tail) yield tail
}

/** Reads the start of the body until its first line is complete. */
async function readHead(source: AsyncIterator<Buffer | string>, decoder: StringDecoder): Promise<string> {
  let head = ""
  while (!/[\r\n]/.test(head)) {
    if (head.length > MAX_HEADER_CHARS) throw new FundingFileError("the first line is not a header (no line break in the first 64 KB)", 1)
    const next = await source.next()
    if (next.done) return head + decoder.end()
    head += typeof next.value === "string" ? next.value : decoder.write(next.value)
  }
  return head
}

/**
 * The lines of a funding file, read as `source` delivers its bytes; nothing holds the whole file.
 * Throws FundingFileError for a file without the documented header, or cut inside a quoted field.
 */
export async function* readFundingFile(source: AsyncIterable<Buffer | string>): AsyncGenerator<FundingFileEntry> {
  const iterator = source[Symbol.asyncIterator]()
  const decoder = new StringDecoder("utf8")
  const head = await readHead(iterator, decoder)
  if (head.trim() === "") throw new FundingFileError("the file is empty (no header line)", 1)
  const delimiter = detectDelimiter(head.split(/\r?\n|\r/)[0])
  // A record csv-parse cannot split is noted with how many records came before it, so it is
  // reported in its place: as an issue, or (a quoted cell never closed: the file is cut) fatally.
  const skipped: Array<{ after: number; code: string; line: number; message: string }> = []
  const parser = parse({
    delimiter,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    max_record_size: MAX_RECORD_CHARS,
    skip_records_with_error: true,
    on_skip: (error) => {
      if (error) skipped.push({ after: parser.info.records, code: error.code, line: Number(error.lines ?? 0), message: error.message })
      return undefined
    },
  })
  const input = Readable.from(textOf(head, iterator, decoder))
  pipeline(input, parser, () => {
    // Errors reach the loop below through the parser; the callback only keeps pipeline from throwing.
  })
  function* skippedUpTo(records: number): Generator<FundingFileEntry> {
    while (skipped.length > 0 && skipped[0].after <= records) {
      const { code, line, message } = skipped.shift() as (typeof skipped)[number]
      if (code === "CSV_QUOTE_NOT_CLOSED") throw new FundingFileError(`the CSV breaks off at line ${line} inside a quoted cell (is the file cut short?)`, line)
      yield { ok: false, issue: { line, message: `line ${line}: ${message}`, cells: {} } }
    }
  }
  let columns: Column[] | undefined
  let consumed = 0
  const schema = lineSchema(delimiter !== ",")
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      yield* skippedUpTo(consumed++)
      const line = info.lines - record.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0)
      if (!columns) {
        columns = headerColumns(record, line)
        continue
      }
      yield toEntry(record, line, columns, schema, delimiter !== ",")
    }
    yield* skippedUpTo(Infinity)
  } finally {
    input.destroy()
  }
  if (!columns) throw new FundingFileError("the file has no header line", 1)
}

interface Column {
  header: string
  /** Set for a documented column. */
  field?: Field
}

function headerColumns(record: string[], line: number): Column[] {
  const columns = record.map((cell) => {
    const header = clean(cell)
    return { header, field: BY_HEADER.get(header.toLowerCase()) }
  })
  const missing = REQUIRED.filter((field) => !columns.some((c) => c.field === field))
  if (missing.length > 0) {
    throw new FundingFileError(`the header (line ${line}) lacks the column(s) ${missing.map((f) => `"${FUNDING_COLUMNS[f]}"`).join(", ")}`, line)
  }
  return columns
}

function toEntry(record: string[], line: number, columns: Column[], schema: ReturnType<typeof lineSchema>, comma: boolean): FundingFileEntry {
  const cells: Record<string, string> = {}
  const known: Partial<Record<Field, string>> = {}
  const extra: Record<string, string> = {}
  record.forEach((value, index) => {
    const column = columns[index]
    const header = column?.header ?? `column ${index + 1}`
    cells[header] = value
    if (column?.field) {
      if (value.trim() !== "") known[column.field] = value.trim()
    } else extra[header] = value
  })
  const fail = (message: string): FundingFileEntry => ({ ok: false, issue: { line, message, cells } })
  if (record.length !== columns.length) return fail(`line ${line} has ${record.length} cells; the header has ${columns.length}`)
  const parsed = schema.safeParse(known)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = FUNDING_COLUMNS[issue.path[0] as Field] ?? String(issue.path[0])
    return fail(`line ${line}: ${field} ${issue.message}`)
  }
  const v = parsed.data
  try {
    const settlementCurrency = currencyInfo(v.settlementCurrency).alpha
    const transactionCurrency = v.transactionCurrency === undefined ? undefined : currencyInfo(v.transactionCurrency).alpha
    // An empty amount cell is 0, as AltaPay's C# SDK reads it (FundingRecord via Amount.Get(string):
    // "Funding1.csv" has a fee line and a payment line with every amount empty, read as 0.00).
    const money = (text: string | undefined, currency: string | undefined, field: Field): number | undefined => {
      if (currency === undefined) {
        if (text === undefined) return undefined
        throw new Error(`${FUNDING_COLUMNS[field]} has no currency`)
      }
      return text === undefined ? 0 : decimalToMinor(comma ? text.replace(",", ".") : text, currency, FUNDING_COLUMNS[field])
    }
    const type = v.type.toLowerCase()
    const result: FundingLine = {
      line,
      date: v.date.slice(0, 10),
      type,
      knownType: KNOWN_TYPES.has(type),
      ...defined({
        id: v.id,
        reconciliationIdentifier: v.reconciliationIdentifier,
        paymentId: v.paymentId,
        shopOrderId: v.shopOrderId,
        terminal: v.terminal,
        shop: v.shop,
        transactionCurrency,
        transactionAmountMinor: money(v.transactionAmount, transactionCurrency, "transactionAmount"),
        exchangeRate: v.exchangeRate === undefined ? undefined : v.exchangeRate.replace(",", "."),
      }),
      settlementCurrency,
      settlementAmountMinor: money(v.settlementAmount, settlementCurrency, "settlementAmount") as number,
      fixedFeeMinor: money(v.fixedFee, settlementCurrency, "fixedFee") as number,
      fixedFeeVatMinor: money(v.fixedFeeVat, settlementCurrency, "fixedFeeVat") as number,
      rateBasedFeeMinor: money(v.rateBasedFee, settlementCurrency, "rateBasedFee") as number,
      rateBasedFeeVatMinor: money(v.rateBasedFeeVat, settlementCurrency, "rateBasedFeeVat") as number,
      extra,
    }
    return { ok: true, line: result }
  } catch (error) {
    return fail(`line ${line}: ${(error as Error).message.replace(/\.$/, "")}`)
  }
}

function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}
