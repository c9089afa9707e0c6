/**
 * A merchant's Medusa store in a folder outside the repository, as `create-medusa-app` makes one
 * (Medusa's starter: its @medusajs packages, ts-node with swc, its tsconfig), with the packed
 * plugin installed from its tarball and the repository's medusa-config.example.ts as its config.
 * Everything runs through the store's own Medusa CLI, as the merchant would run it.
 */
import { spawn } from "node:child_process"
import fs from "node:fs"
import path from "node:path"

export const REPO_ROOT = path.resolve(__dirname, "../..")

interface RepoPackage {
  devDependencies: Record<string, string>
  overrides?: Record<string, string>
}
const repoPackage = (): RepoPackage => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as RepoPackage

/** The Medusa version the repository develops against (its devDependency). */
export function developedMedusaVersion(): string {
  return repoPackage().devDependencies["@medusajs/medusa"]
}

/** Runs a command to completion; its output goes to `log`, whose tail is in the error on failure. */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; log: string }): Promise<void> {
  fs.appendFileSync(options.log, `\n$ ${command} ${args.join(" ")}   (in ${options.cwd})\n`)
  const fd = fs.openSync(options.log, "a")
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? storeProcessEnv(), stdio: ["ignore", fd, fd] })
    fs.closeSync(fd)
    child.once("error", reject)
    child.once("exit", (code, signal) => {
      if (code === 0) return resolve()
      reject(new Error(`\`${command} ${args.join(" ")}\` failed (${signal ?? `exit code ${code}`}) in ${options.cwd}\n--- ${options.log} ---\n${tail(options.log)}`))
    })
  })
}

export function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n")
  } catch {
    return "(no log)"
  }
}

/** The environment of the store's processes: this one's, without jest's NODE_OPTIONS and quiet flags. */
export function storeProcessEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true", LOG_LEVEL: "info", ...extra }
  delete env.NODE_OPTIONS
  delete env.JEST_WORKER_ID
  return env
}

/**
 * package.json of the store: Medusa's starter dependencies at `medusaVersion`, plus the tarball.
 * @swc/core and the repository's `overrides` are pinned as in the repository, to builds whose
 * platform packages the registry serves (docs/development.md, "What CI tests": stack choices).
 */
export function storePackageJson(medusaVersion: string, tarball: string): object {
  const medusa = (name: string) => [`@medusajs/${name}`, medusaVersion]
  const repo = repoPackage()
  return {
    name: "altapay-scratch-store",
    version: "0.0.1",
    private: true,
    scripts: { build: "medusa build", start: "medusa start", dev: "medusa develop" },
    dependencies: {
      ...Object.fromEntries(["admin-sdk", "cli", "draft-order", "framework", "medusa"].map(medusa)),
      "medusa-payment-altapay": `file:${tarball}`,
    },
    devDependencies: {
      ...Object.fromEntries(["test-utils"].map(medusa)),
      "@swc/core": repo.devDependencies["@swc/core"],
      "ts-node": "^10.9.2",
      typescript: "^5.6.2",
    },
    engines: { node: ">=20" },
    overrides: repo.overrides ?? {},
  }
}

/** tsconfig.json of Medusa's starter: ts-node compiles medusa-config.ts with swc. */
const STARTER_TSCONFIG = {
  compilerOptions: {
    target: "ES2021",
    esModuleInterop: true,
    module: "Node16",
    moduleResolution: "Node16",
    emitDecoratorMetadata: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    skipDefaultLibCheck: true,
    declaration: false,
    sourceMap: false,
    inlineSourceMap: true,
    outDir: "./.medusa/server",
    rootDir: "./",
    jsx: "react-jsx",
    forceConsistentCasingInFileNames: true,
    resolveJsonModule: true,
    checkJs: false,
    strictNullChecks: true,
  },
  "ts-node": { swc: true },
  include: ["**/*", ".medusa/types/*"],
  exclude: ["node_modules", ".medusa/server", ".medusa/admin", ".cache"],
}

/** Writes the store's package.json, tsconfig.json and medusa-config.ts (the repository's example, unchanged). */
export function writeStore(dir: string, medusaVersion: string, tarball: string): void {
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(storePackageJson(medusaVersion, tarball), null, 2))
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(STARTER_TSCONFIG, null, 2))
  fs.copyFileSync(path.join(REPO_ROOT, "medusa-config.example.ts"), path.join(dir, "medusa-config.ts"))
}

/**
 * `npm install` in the store: the registry (the cache first) plus the tarball. Strict peers first,
 * as a merchant's plain `npm install` resolves the plugin's. Some Medusa releases conflict with
 * themselves under strict peers (2.14.2: @medusajs/draft-order's optional react ^18.3.1 against
 * @medusajs/icons' react ^19.2.5), and create-medusa-app installs every store with
 * `--legacy-peer-deps`; a conflict that does not involve the plugin is installed that way, and
 * said. Returns how it installed.
 */
export async function installStore(dir: string, log: string): Promise<"strict" | "legacy peer deps"> {
  const install = ["install", "--no-audit", "--no-fund", "--prefer-offline"]
  const before = fs.existsSync(log) ? fs.statSync(log).size : 0
  try {
    await run("npm", install, { cwd: dir, log })
    return "strict"
  } catch (error) {
    const output = fs.readFileSync(log).subarray(before).toString("utf8")
    if (!output.includes("ERESOLVE") || output.includes("medusa-payment-altapay@")) throw error
  }
  await run("npm", [...install, "--legacy-peer-deps"], { cwd: dir, log })
  return "legacy peer deps"
}

/** The store's own Medusa CLI. */
export function medusaCli(dir: string): string {
  return path.join(dir, "node_modules", "@medusajs", "cli", "cli.js")
}

export interface RunningProcess {
  /** Output so far (stdout and stderr). */
  output(): string
  /** Resolves with the first output line matching `pattern`; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>
  stop(): Promise<void>
}

/** Starts a long-running command in its own process group (stop() ends it and its children). */
export function launch(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; log: string }): RunningProcess {
  fs.appendFileSync(options.log, `\n$ ${command} ${args.join(" ")}   (in ${options.cwd})\n`)
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let text = ""
  // "close", not "exit": output can still arrive after the exit, and the log folder may be gone by then.
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()))
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk: Buffer) => {
      text += chunk.toString()
      try {
        fs.appendFileSync(options.log, chunk)
      } catch {
        // The log folder is removed after the spec: a late line is kept in `text` only.
      }
    })
  }
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name)
    } catch {
      // already gone
    }
  }
  return {
    output: () => text,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + timeoutMs
        const poll = setInterval(() => {
          const match = pattern.exec(text)
          if (match) return done(() => resolve(match))
          if (child.exitCode !== null || child.signalCode !== null)
            return done(() => reject(new Error(`\`${command} ${args.join(" ")}\` exited (${child.exitCode ?? child.signalCode}):\n${tail(options.log)}`)))
          if (Date.now() > deadline)
            done(() => reject(new Error(`\`${command} ${args.join(" ")}\` printed nothing like ${pattern} within ${timeoutMs / 1000} s:\n${tail(options.log)}`)))
        }, 100)
        const done = (settle: () => void) => {
          clearInterval(poll)
          settle()
        }
      }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      signal("SIGTERM")
      const forced = setTimeout(() => signal("SIGKILL"), 10_000)
      await exited
      clearTimeout(forced)
    },
  }
}
