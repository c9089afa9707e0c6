/**
 * `altapay-sandbox`: runs the sandbox in the foreground for local development and prints where
 * to point the provider. It prints its own (sandbox-only) credentials on purpose.
 */
import { minorToDecimal } from "../altapay/money"
import { startSandbox, type LedgerEntry, type Sandbox } from "./index"
import { RETURN_MODES, type ReturnMode } from "./env"

export interface CliOptions {
  port: number
  host: string
  username: string
  password: string
  callbackSecret?: string
  /** --quiet: no line per request (the ledger is still at GET /sandbox/ledger). */
  quiet?: boolean
  returnMode?: ReturnMode
  /** --example-fundings: start with example funding files (payouts) to look at. */
  exampleFundings?: boolean
  /** --funding-delay <ms|off>: from a capture or refund to its funding file. */
  fundingDelayMs?: number | false
  /** --invoice-terminal[=<days>]: offer the Klarna invoice terminal (captures within 28 days, or <days>). */
  invoiceTerminal?: true | { captureWithinDays: number }
  /** --surcharge-percent <n>: the card terminal surcharges card payments by n percent. */
  surchargePercent?: number
}

const USAGE = `Usage: altapay-sandbox [--port 8787] [--host 127.0.0.1] [--username sandbox] [--password sandbox] [--callback-secret <secret>] [--return-mode server-post|browser-redirect] [--example-fundings] [--funding-delay <ms|off>] [--invoice-terminal[=<days>]] [--surcharge-percent <n>] [--quiet]

  --example-fundings       start with example funding files (payouts: every line type, fees, a currency conversion)
  --funding-delay <ms|off> time from a capture or refund to the funding file holding it (default 86400000, one day);
                           off: no funding files from the sandbox's own payments
  --invoice-terminal[=<days>] offer "Klarna DKK Sandbox Terminal", an invoice terminal whose captures and refunds
                           go by the reserved order lines; captures are refused after 28 days (or <days>)
  --surcharge-percent <n>  the card terminal surcharges: a card payment reserves n percent more (SurchargeAmount)`

export function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = { port: 8787, host: "127.0.0.1", username: "sandbox", password: "sandbox" }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined]
    const value = (): string => {
      const next = inline ?? argv[++i]
      if (next === undefined || next === "") throw new Error(`${flag} needs a value.\n${USAGE}`)
      return next
    }
    switch (flag) {
      case "--port": {
        const port = Number(value())
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number.\n${USAGE}`)
        options.port = port
        break
      }
      case "--host":
        options.host = value()
        break
      case "--username":
        options.username = value()
        break
      case "--password":
        options.password = value()
        break
      case "--callback-secret":
        options.callbackSecret = value()
        break
      case "--quiet":
        if (inline !== undefined) throw new Error(`--quiet takes no value.\n${USAGE}`)
        options.quiet = true
        break
      case "--return-mode": {
        const mode = value()
        if (!(RETURN_MODES as readonly string[]).includes(mode)) throw new Error(`--return-mode must be one of ${RETURN_MODES.join(", ")}.\n${USAGE}`)
        options.returnMode = mode as ReturnMode
        break
      }
      case "--example-fundings":
        if (inline !== undefined) throw new Error(`--example-fundings takes no value.\n${USAGE}`)
        options.exampleFundings = true
        break
      case "--funding-delay": {
        const delay = value()
        if (delay !== "off" && !/^\d{1,12}$/.test(delay)) throw new Error(`--funding-delay must be milliseconds or "off".\n${USAGE}`)
        options.fundingDelayMs = delay === "off" ? false : Number(delay)
        break
      }
      case "--invoice-terminal": {
        if (inline !== undefined && !/^\d{1,5}$/.test(inline)) throw new Error(`--invoice-terminal=<days> takes a whole number of days.\n${USAGE}`)
        options.invoiceTerminal = inline === undefined ? true : { captureWithinDays: Number(inline) }
        break
      }
      case "--surcharge-percent": {
        const percent = value()
        if (!/^\d{1,2}(\.\d{1,2})?$/.test(percent) || Number(percent) <= 0) throw new Error(`--surcharge-percent takes a percentage above 0, e.g. 2.5.\n${USAGE}`)
        options.surchargePercent = Number(percent)
        break
      }
      case "--help":
      case "-h":
        throw new Error(USAGE)
      default:
        throw new Error(`Unknown option ${arg}.\n${USAGE}`)
    }
  }
  return options
}

export function describe(sandbox: Sandbox, options: CliOptions): string {
  return [
    `AltaPay sandbox listening on ${sandbox.url}`,
    `  checkout URL:     ${sandbox.checkoutUrl}   (API at /checkout/v1/api)`,
    `  gateway URL:      ${sandbox.gatewayUrl}   (API at /merchant/API)`,
    `  hosted page base: ${sandbox.hostedPageUrl}/<paymentId>`,
    `  username:         ${options.username}`,
    `  password:         ${options.password}`,
    `  callback secret:  ${options.callbackSecret ?? "(none: callbacks are unsigned)"}`,
    `  ledger:           ${sandbox.url}/sandbox/ledger   (JSON; every request${options.quiet ? "" : ", also printed below one line each"})`,
    `  fundings:         ${sandbox.gatewayUrl}/merchant/API/fundingList?page=0   (Basic auth; ${sandbox.fundings.list().length} funding file(s)${options.exampleFundings ? ", the examples" : ""})`,
    `  customer return:  ${options.returnMode ?? "server-post"}${(options.returnMode ?? "server-post") === "server-post" ? "   (signed POST to the success/failure URL, its redirect relayed)" : "   (browser sent to the success/failure URL)"}`,
    ...(options.invoiceTerminal
      ? [`  invoice terminal: Klarna DKK Sandbox Terminal   (captures within ${options.invoiceTerminal === true ? 28 : options.invoiceTerminal.captureWithinDays} days)`]
      : []),
    ...(options.surchargePercent ? [`  surcharge:        ${options.surchargePercent} % on card payments   (SurchargeAmount)`] : []),
    `Press Ctrl+C to stop.`,
  ].join("\n")
}

/**
 * One ledger entry as one line: sequence, method, path, operation, status, and the money it moved,
 * e.g. `#7 POST /merchant/API/refundCapturedReservation refundCapturedReservation 200 refund 25.00 DKK Success`.
 */
export function formatLedgerEntry(entry: LedgerEntry): string {
  const parts = [`#${entry.seq}`, entry.method, entry.url ?? entry.path, entry.operation, entry.status === 0 ? "no answer" : String(entry.status)]
  if (entry.fault) parts.push(`fault ${entry.fault}`)
  for (const effect of entry.effects ?? []) parts.push(`${effect.type} ${minorToDecimal(effect.amountMinor, effect.currency)} ${effect.currency} ${effect.result}`)
  return parts.join(" ")
}

/** Starts the sandbox from command-line arguments; resolves once it is listening. */
export async function main(argv: string[]): Promise<Sandbox> {
  let options: CliOptions
  try {
    options = parseArgs(argv)
  } catch (error) {
    console.error((error as Error).message)
    process.exitCode = 1
    throw error
  }
  const sandbox = await startSandbox({ ...options, onLedgerEntry: options.quiet ? undefined : (entry) => console.log(formatLedgerEntry(entry)) })
  console.log(describe(sandbox, options))
  const stop = (signal: string): void => {
    console.log(`\n${signal}: stopping the AltaPay sandbox.`)
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  }
  process.once("SIGINT", () => stop("SIGINT"))
  process.once("SIGTERM", () => stop("SIGTERM"))
  return sandbox
}
