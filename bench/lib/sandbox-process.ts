/**
 * The sandbox runs in its own process: its CPU, garbage and growing store (every session and
 * transaction is kept) stay out of the measured process, as a remote AltaPay would. The parent
 * drives it over IPC: ledger counts, simulated payments, faults.
 */
import { fork, type ChildProcess } from "node:child_process"
import path from "node:path"
import { startSandbox, type GeneratedFundingFileInput, type LedgerEntry, type Sandbox } from "../../src/sandbox"
import type { FaultKind } from "../../src/sandbox/faults"

export const USER = "bench-user"
export const PASSWORD = "bench-password-0123456789"
/** Signs the sandbox's notification callbacks (the store bench's provider checks them with it). */
export const CALLBACK_SECRET = "bench-callback-secret-0123456789"

/** A fault as it crosses the process boundary (JSON: no RegExp, no Infinity). */
export interface RemoteFault {
  route?: string
  kind: FaultKind
  ms?: number
  times?: number
}

/** What the parent learns from the ledger: operation names in order, with auth and effects. */
export interface LedgerLine {
  operation: string
  auth: string
  status: number
  effect?: string
  fault?: string
}

type Request =
  | { op: "ledger" }
  | { op: "clearLedger" }
  | { op: "simulatePayment"; sessionId: string; callback?: boolean }
  | { op: "fault"; spec: RemoteFault }
  | { op: "clearFaults" }
  | { op: "transaction"; transactionId: string }
  | { op: "cpu" }
  | { op: "addGeneratedFundings"; files: GeneratedFundingFileInput[] }

const summarise = (e: LedgerEntry): LedgerLine => ({
  operation: e.operation,
  auth: e.auth,
  status: e.status,
  ...(e.effect ? { effect: `${e.effect.type}:${e.effect.result}` } : {}),
  ...(e.fault ? { fault: e.fault } : {}),
})

/** Child side: start the sandbox, announce its URL, answer requests until the parent leaves. */
export async function runSandboxChild(): Promise<void> {
  const sandbox: Sandbox = await startSandbox({ port: 0, username: USER, password: PASSWORD, callbackSecret: CALLBACK_SECRET, autoCallbacks: false })
  const answer = async (req: Request): Promise<unknown> => {
    switch (req.op) {
      case "ledger":
        return sandbox.ledger().map(summarise)
      case "clearLedger":
        return sandbox.clearLedger()
      case "simulatePayment":
        return sandbox.simulatePayment(req.sessionId, { outcome: "authorize", callback: req.callback ?? false })
      case "fault":
        return sandbox.faults.add(req.spec)
      case "clearFaults":
        return sandbox.faults.clear()
      case "transaction":
        return sandbox.transaction(req.transactionId)
      case "addGeneratedFundings":
        // The files' CSV is written as each is downloaded: the sandbox keeps a few numbers per file.
        return req.files.map((file) => sandbox.fundings.addGenerated(file).amountMinor)
      case "cpu": {
        const { user, system } = process.cpuUsage()
        return user + system
      }
    }
  }
  process.on("message", (message: { id: number; req: Request }) => {
    answer(message.req).then(
      (value) => process.send?.({ id: message.id, value }),
      (error: unknown) => process.send?.({ id: message.id, error: String(error) })
    )
  })
  process.on("disconnect", () => {
    void sandbox.close().then(() => process.exit(0))
  })
  process.send?.({ ready: sandbox.url })
}

/** Parent side. */
export class RemoteSandbox {
  private nextId = 1
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string
  ) {
    child.on("message", (message: { id?: number; value?: unknown; error?: string }) => {
      const waiter = message.id === undefined ? undefined : this.waiting.get(message.id)
      if (!waiter || message.id === undefined) return
      this.waiting.delete(message.id)
      if (message.error !== undefined) waiter.reject(new Error(message.error))
      else waiter.resolve(message.value)
    })
  }

  static async start(): Promise<RemoteSandbox> {
    const child = fork(path.join(__dirname, "..", "run.js"), ["--sandbox-child"], { stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv: [] })
    const url = await new Promise<string>((resolve, reject) => {
      child.once("error", reject)
      child.once("exit", (code) => reject(new Error(`the sandbox process exited (${code})`)))
      child.once("message", (message: { ready?: string }) => (message.ready ? resolve(message.ready) : reject(new Error("unexpected first message"))))
    })
    return new RemoteSandbox(child, url)
  }

  private call<T>(req: Request): Promise<T> {
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
      this.child.send({ id, req })
    })
  }

  ledger = (): Promise<LedgerLine[]> => this.call({ op: "ledger" })
  clearLedger = (): Promise<void> => this.call({ op: "clearLedger" })
  /** `callback`: the sandbox also sends the payment's notification callback to the session's URL. */
  simulatePayment = (sessionId: string, callback = false): Promise<{ transactionId?: string }> => this.call({ op: "simulatePayment", sessionId, callback })
  fault = (spec: RemoteFault): Promise<void> => this.call({ op: "fault", spec })
  clearFaults = (): Promise<void> => this.call({ op: "clearFaults" })
  /** Generated funding files (src/sandbox/fundings/generated-fundings.ts); answers each one's Amount. */
  addGeneratedFundings = (files: GeneratedFundingFileInput[]): Promise<number[]> => this.call({ op: "addGeneratedFundings", files })
  /** CPU time the sandbox process has used, µs. */
  cpuMicros = (): Promise<number> => this.call({ op: "cpu" })

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once("exit", () => resolve())
      this.child.disconnect()
    })
  }
}
