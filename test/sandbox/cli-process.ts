/** Runs `npx altapay-sandbox` as a child process for the CLI tests (cli.test.ts, fundings-cli.test.ts). */
import { spawn } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const root = join(__dirname, "..", "..")

export interface RunningCli {
  url: string
  waitFor(text: string): Promise<void>
  /** Stops the CLI with SIGTERM and resolves with everything it printed. */
  stop(): Promise<string>
}

/** Runs bin/altapay-sandbox.js as `npx altapay-sandbox` in a checkout without .medusa (so from the sources). */
export async function spawnCli(args: string[]): Promise<RunningCli> {
  const checkout = mkdtempSync(join(tmpdir(), "altapay-cli-"))
  mkdirSync(join(checkout, "bin"))
  for (const file of ["altapay-sandbox.js", "load-cli.js"]) copyFileSync(join(root, "bin", file), join(checkout, "bin", file))
  for (const folder of ["src", "demo"]) symlinkSync(join(root, folder), join(checkout, folder), "dir")
  const child = spawn(process.execPath, [join(checkout, "bin", "altapay-sandbox.js"), ...args], { cwd: checkout, env: { ...process.env, NODE_OPTIONS: "" } })
  let output = ""
  const waiters = new Set<() => void>()
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const collect = (chunk: Buffer): void => {
    output += chunk.toString()
    for (const check of waiters) check()
  }
  child.stdout.on("data", collect)
  child.stderr.on("data", collect)
  const waitFor = (text: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (!output.includes(text)) return
        waiters.delete(check)
        resolve()
      }
      waiters.add(check)
      check()
      exited.then(() => reject(new Error(`altapay-sandbox exited before printing ${JSON.stringify(text)}: ${output}`)))
    })
  const stop = async (): Promise<string> => {
    if (child.exitCode === null) child.kill("SIGTERM")
    await exited
    rmSync(checkout, { recursive: true, force: true })
    return output
  }
  try {
    await waitFor("Press Ctrl+C")
  } catch (error) {
    await stop()
    throw error
  }
  const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
  if (!url) throw new Error(`No URL in the banner: ${output}`)
  return { url, waitFor, stop }
}
