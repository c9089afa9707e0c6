/**
 * `altapay-check` as a merchant runs it, for the tests: a sandbox per test file, medusa-config.js
 * files written into a scratch folder, and the command's printed lines.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { runCheck } from "../../src/check/cli"
import { startSandbox, type Sandbox } from "../../src/sandbox"
import { CALLBACK_SECRET, SANDBOX_PASSWORD, SANDBOX_USER } from "./sandbox"

export const SANDBOX_TERMINAL = "AltaPay Sandbox Test Terminal"

export interface CheckCli {
  sandbox(): Sandbox
  dir(): string
  /** Options that pass every check against the sandbox (a local set-up: notes only). */
  goodOptions(): Record<string, unknown>
  /** A medusa-config.js as written (modules as an array), with one AltaPay registration. */
  writeConfig(options: Record<string, unknown>, extra?: { id?: string; plugin?: boolean }): string
  check(args: string[]): Promise<{ code: number; output: string[] }>
}

/** Call at a test file's top level: starts the sandbox and the scratch folder before its tests. */
export function useCheckCli(): CheckCli {
  let sandbox: Sandbox | undefined
  let dir = ""
  let files = 0
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, username: SANDBOX_USER, password: SANDBOX_PASSWORD, callbackSecret: CALLBACK_SECRET })
    dir = mkdtempSync(path.join(tmpdir(), "altapay-check-"))
  })
  afterAll(async () => {
    await sandbox?.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const started = (): Sandbox => {
    if (!sandbox) throw new Error("useCheckCli(): the sandbox has not started (use it inside tests)")
    return sandbox
  }
  return {
    sandbox: started,
    dir: () => dir,
    goodOptions: () => ({
      checkoutUrl: started().checkoutUrl,
      gatewayUrl: started().gatewayUrl,
      allowInsecureUrls: true,
      username: SANDBOX_USER,
      password: SANDBOX_PASSWORD,
      terminal: SANDBOX_TERMINAL,
      callbackSecret: CALLBACK_SECRET,
      backendUrl: "http://localhost:9000",
    }),
    writeConfig(options, extra = {}) {
      const file = path.join(dir, `medusa-config-${++files}.js`)
      const config = {
        plugins: extra.plugin === false ? [] : [{ resolve: "medusa-payment-altapay", options: {} }],
        modules: [{ resolve: "@medusajs/medusa/payment", options: { providers: [{ resolve: "medusa-payment-altapay/providers/altapay", id: extra.id ?? "altapay", options }] } }],
      }
      writeFileSync(file, `module.exports = ${JSON.stringify(config, null, 2)}\n`)
      return file
    },
    async check(args) {
      const output: string[] = []
      const code = await runCheck(args, { cwd: dir, print: (line) => output.push(line) })
      return { code, output }
    },
  }
}

/** The printed lines of one status (`ok`, `problem`, `note`, `skipped`). */
export const linesWith = (output: string[], status: string): string[] => output.filter((line) => line.startsWith(`${status} `))
