/**
 * Runs the Medusa CLI as a merchant would (`medusa plugin:build`, `db:migrate`, `exec`,
 * `develop`), with the demo's environment and its output kept in a log file.
 */
import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { DEMO_DIR, type DemoSettings } from "./settings"

const MEDUSA_CLI = path.join(path.dirname(require.resolve("@medusajs/cli/package.json")), "cli.js")
const REGISTER_TS = path.join(DEMO_DIR, "register-ts.js")

export interface MedusaEnvInput {
  settings: DemoSettings
  databaseUrl: string
  sandboxUrl: string
}

/** What demo/medusa-config.ts and demo/src/scripts/seed.ts read. */
export function medusaEnv({ settings, databaseUrl, sandboxUrl }: MedusaEnvInput): NodeJS.ProcessEnv {
  const backendUrl = `http://localhost:${settings.ports.medusa}`
  return {
    ...process.env,
    // A store has ts-node for its TypeScript; the demo brings an @swc/core hook instead.
    NODE_OPTIONS: [process.env.NODE_OPTIONS, `--require ${REGISTER_TS}`].filter(Boolean).join(" "),
    MEDUSA_DISABLE_TELEMETRY: "true",
    DATABASE_URL: databaseUrl,
    PORT: String(settings.ports.medusa),
    DEMO_MEDUSA_PORT: String(settings.ports.medusa),
    DEMO_ADMIN: String(settings.admin),
    MEDUSA_BACKEND_URL: backendUrl,
    STORE_URL: settings.storeUrl,
    ALTAPAY_CHECKOUT_URL: sandboxUrl,
    ALTAPAY_GATEWAY_URL: sandboxUrl,
    // The local sandbox speaks http only.
    ALTAPAY_ALLOW_INSECURE_URLS: "true",
    ALTAPAY_USERNAME: settings.altapay.username,
    ALTAPAY_PASSWORD: settings.altapay.password,
    ALTAPAY_TERMINAL: settings.altapay.terminal,
    ALTAPAY_CALLBACK_SECRET: settings.altapay.callbackSecret,
    DEMO_ADMIN_EMAIL: settings.adminLogin.email,
    DEMO_ADMIN_PASSWORD: settings.adminLogin.password,
    DEMO_SEED_FILE: path.join(settings.dataDir, "seed.json"),
  }
}

export class CommandFailed extends Error {}

function outputSink(settings: DemoSettings): { stdio: "inherit" | ["ignore", number, number]; logFile: string } {
  const logFile = path.join(settings.dataDir, "medusa.log")
  if (settings.verbose) return { stdio: "inherit", logFile }
  const fd = fs.openSync(logFile, "a")
  return { stdio: ["ignore", fd, fd], logFile }
}

/** The child has its own copy of the log's file descriptor; the parent's can go. */
function closeSink(stdio: ReturnType<typeof outputSink>["stdio"]): void {
  if (Array.isArray(stdio)) fs.closeSync(stdio[1])
}

const commands = new Set<ChildProcess>()

/** Stops the `medusa` commands still running (a build, migration or seed cut short by Ctrl-C). */
export function stopRunningCommands(): void {
  for (const child of commands) child.kill("SIGTERM")
}

/** Runs `medusa <args>` in `cwd` to completion; on failure the error names the log to read. */
export function runMedusa(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; settings: DemoSettings }): Promise<void> {
  const { stdio, logFile } = outputSink(opts.settings)
  if (!opts.settings.verbose) fs.appendFileSync(logFile, `\n$ medusa ${args.join(" ")}   (in ${opts.cwd})\n`)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MEDUSA_CLI, ...args], { cwd: opts.cwd, env: opts.env, stdio })
    closeSink(stdio)
    commands.add(child)
    child.once("error", reject)
    child.once("exit", (code, signal) => {
      commands.delete(child)
      if (code === 0) return resolve()
      const tail = opts.settings.verbose ? "" : `\n--- last lines of ${logFile} ---\n${tailOf(logFile, 40)}`
      reject(new CommandFailed(`\`medusa ${args.join(" ")}\` failed (${signal ?? `exit code ${code}`}).${tail}`))
    })
  })
}

export function tailOf(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n")
  } catch {
    return "(no log)"
  }
}

export interface MedusaServer {
  url: string
  logFile: string
  /** Resolves when the server process has exited (any reason). */
  exited: Promise<number | null>
  /** Resolves once /health answers; rejects (with the log's tail) if Medusa exits or times out first. */
  ready(timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

/**
 * Spawns `medusa develop` in its own process group (so Ctrl-C reaches the demo first, and
 * stopping the group also stops the `medusa start` child that develop forks). Returns at once,
 * so the caller can register stop() before waiting for ready().
 */
export function launchMedusa(opts: { env: NodeJS.ProcessEnv; settings: DemoSettings }): MedusaServer {
  const { stdio, logFile } = outputSink(opts.settings)
  if (!opts.settings.verbose) fs.appendFileSync(logFile, `\n$ medusa develop   (in ${DEMO_DIR})\n`)
  const child: ChildProcess = spawn(process.execPath, [MEDUSA_CLI, "develop", "--no-types"], { cwd: DEMO_DIR, env: opts.env, stdio, detached: true })
  closeSink(stdio)
  let exitCode: number | null | undefined
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve((exitCode = code))))
  const url = `http://localhost:${opts.settings.ports.medusa}`

  const stop = async (): Promise<void> => {
    if (exitCode !== undefined || !child.pid) return
    const group = -child.pid
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(group, name)
      } catch {
        // already gone
      }
    }
    signal("SIGTERM")
    const forced = setTimeout(() => signal("SIGKILL"), 10_000)
    await exited
    clearTimeout(forced)
  }

  const ready = async (timeoutMs = 180_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs
    const failure = (why: string) => new CommandFailed(`${why}\n--- last lines of ${logFile} ---\n${tailOf(logFile, 40)}`)
    for (;;) {
      if (exitCode !== undefined) throw failure(`Medusa exited while starting (exit code ${exitCode}).`)
      if (await healthy(url)) return
      if (Date.now() > deadline) {
        await stop()
        throw failure(`Medusa did not answer ${url}/health within ${timeoutMs / 1000} s.`)
      }
      await new Promise((r) => setTimeout(r, 250))
    }
  }

  return { url, logFile, exited, ready, stop }
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) })
    await res.text()
    return res.ok
  } catch {
    return false
  }
}
