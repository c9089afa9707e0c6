/**
 * `altapay-check`: runs the go-live checks (checks.ts) on the store in the current folder and
 * prints one line per check (`skipped`: what another problem decides). Exit code 0 when nothing
 * is a problem, 1 when something is, 2 when the command could not run (bad arguments, a config
 * that does not load).
 */
import { checkStore, type CheckLine, type CheckRun } from "./checks"
import { ConfigFileError, findConfigFile, loadConfigFile } from "./config-file"

export interface CheckCliOptions {
  config?: string
  production: boolean
  network: boolean
  reach: boolean
}

export const USAGE = `Usage: altapay-check [--config <medusa-config file>] [--production] [--offline] [--reach]

  Checks the store's AltaPay configuration and that AltaPay answers with its credentials and knows its terminals.
  Run it in the store's folder, with the environment the store runs with.

  --config <file>  the medusa-config to check (default: medusa-config.ts, medusa-config.js or .medusa/server/medusa-config.js)
  --production     check as for going live (also when NODE_ENV is production): a local sandbox, AltaPay's test gateway,
                   allowInsecureUrls, a missing callbackSecret, and a backendUrl, successUrl or failureUrl AltaPay or
                   the customer cannot reach are problems
  --offline        check the configuration only; call no AltaPay API
  --reach          send a signed test post to the store's public notification and return URLs, as AltaPay posts,
                   and say whether it arrived and what stopped it (run it from outside the store's network)`

export function parseCheckArgs(argv: string[]): CheckCliOptions {
  const options: CheckCliOptions = { production: false, network: true, reach: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined]
    switch (flag) {
      case "--config": {
        const value = inline ?? argv[++i]
        if (value === undefined || value === "") throw new Error(`--config needs a file.\n${USAGE}`)
        options.config = value
        break
      }
      case "--production":
        options.production = true
        break
      case "--offline":
        options.network = false
        break
      case "--reach":
        options.reach = true
        break
      case "--help":
      case "-h":
        throw new Error(USAGE)
      default:
        throw new Error(`Unknown option ${arg}.\n${USAGE}`)
    }
  }
  return options
}

/** One check as one line: `ok      pp_altapay_altapay  options are valid`. */
export function formatLine(line: CheckLine): string {
  return `${line.status.padEnd(7)} ${line.subject.padEnd(20)} ${line.text}`
}

export interface CheckIo {
  cwd: string
  print(line: string): void
  clientFor?: CheckRun["clientFor"]
}

/** Runs the command; resolves with its exit code. */
export async function runCheck(argv: string[], io: CheckIo): Promise<number> {
  let options: CheckCliOptions
  let lines: CheckLine[]
  try {
    options = parseCheckArgs(argv)
    const file = findConfigFile(io.cwd, options.config)
    const config = loadConfigFile(file)
    io.print(formatLine({ status: "ok", subject: "config", text: `${file} loaded` }))
    // The store refuses what cannot work live when NODE_ENV is production: check as it starts.
    const production = options.production || process.env.NODE_ENV === "production"
    lines = await checkStore(config, { production, network: options.network, reach: options.reach, clientFor: io.clientFor })
  } catch (error) {
    if (!(error instanceof ConfigFileError) && !(error instanceof Error && error.message.includes(USAGE))) throw error
    io.print(error instanceof ConfigFileError ? formatLine({ status: "problem", subject: "config", text: error.message }) : error.message)
    return 2
  }
  for (const line of lines) io.print(formatLine(line))
  const problems = lines.filter((line) => line.status === "problem").length
  io.print(problems === 0 ? "No problems found." : `${problems} problem(s): fix each and run altapay-check again.`)
  return problems === 0 ? 0 : 1
}

export async function main(argv: string[]): Promise<void> {
  // eslint-disable-next-line no-console
  process.exitCode = await runCheck(argv, { cwd: process.cwd(), print: (line) => console.log(line) })
}
