/**
 * `npm pack` of the repository, as a release would make it: npm runs `prepack` (the plugin
 * build) first. Also what the tarball must hold, derived from the sources.
 */
import { spawn, spawnSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { REPO_ROOT, storeProcessEnv, tail } from "./scratch-store"

export interface PackedPlugin {
  tarball: string
  /** Paths inside the package, sorted. */
  files: string[]
}

/** Packs into `destination`; prepack's output goes to `log`. */
export function packPlugin(destination: string, log: string): Promise<PackedPlugin> {
  fs.appendFileSync(log, `\n$ npm pack --json --pack-destination ${destination}   (in ${REPO_ROOT})\n`)
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["pack", "--json", "--pack-destination", destination], { cwd: REPO_ROOT, env: storeProcessEnv() })
    let stdout = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => fs.appendFileSync(log, chunk))
    child.once("error", reject)
    child.once("exit", (code) => {
      fs.appendFileSync(log, stdout)
      // The prepack build prints to stdout too: npm's JSON report is the part from the line "[".
      const report = stdout.slice(stdout.search(/^\[$/m))
      if (code !== 0 || !report.startsWith("[")) return reject(new Error(`npm pack failed (exit code ${code}):\n${tail(log)}`))
      const [packed] = JSON.parse(report) as Array<{ filename: string; files: Array<{ path: string }> }>
      resolve({ tarball: path.join(destination, packed.filename), files: packed.files.map((f) => f.path).sort() })
    })
  })
}

/** A tarball packed earlier in this run (ALTAPAY_TEST_TARBALL), read as packPlugin reports one. */
export function packedTarball(tarball: string): PackedPlugin {
  const listing = spawnSync("tar", ["-tzf", tarball], { encoding: "utf8" })
  if (listing.status !== 0) throw new Error(`cannot read the tarball ${tarball}: ${listing.stderr}`)
  const files = listing.stdout
    .split("\n")
    .filter((entry) => entry.startsWith("package/") && !entry.endsWith("/"))
    .map((entry) => entry.slice("package/".length))
  return { tarball, files: files.sort() }
}

/**
 * What a store needs, nothing else: each server source compiled (.js and its .d.ts), the admin
 * bundle (CommonJS and ESM), the commands in bin/, the README and the docs pages it links with their
 * screenshots and the example configs, the Next.js starter kit (its README, patch and files; not its
 * walk), LICENSE and CHANGELOG.
 */
export function expectedTarballFiles(): string[] {
  // The commands (package.json's "bin": the sandbox, the go-live check) and what they share, all in bin/.
  const bins = fs.readdirSync(path.join(REPO_ROOT, "bin")).map((file) => `bin/${file}`)
  const files = ["package.json", "README.md", "LICENSE", "CHANGELOG.md", ...bins, ".medusa/server/src/admin/index.js", ".medusa/server/src/admin/index.mjs"]
  const kit = "storefronts/nextjs-starter"
  files.push(`${kit}/README.md`, `${kit}/altapay.patch`)
  for (const file of fs.readdirSync(path.join(REPO_ROOT, kit, "src"), { recursive: true, encoding: "utf8" })) {
    if (fs.statSync(path.join(REPO_ROOT, kit, "src", file)).isFile()) files.push(`${kit}/src/${file.split(path.sep).join("/")}`)
  }
  for (const page of fs.readdirSync(path.join(REPO_ROOT, "docs"))) if (page.endsWith(".md")) files.push(`docs/${page}`)
  // The docs' screenshots, and the example configs they link (a store starts its medusa-config from one).
  for (const image of fs.readdirSync(path.join(REPO_ROOT, "docs/images"))) if (image.endsWith(".png")) files.push(`docs/images/${image}`)
  files.push("medusa-config.example.ts", "medusa-config.multi.example.ts")
  for (const source of fs.readdirSync(path.join(REPO_ROOT, "src"), { recursive: true, encoding: "utf8" })) {
    if (source.startsWith(`admin${path.sep}`) || !source.endsWith(".ts")) continue
    const compiled = `.medusa/server/src/${source.slice(0, -".ts".length).split(path.sep).join("/")}`
    files.push(`${compiled}.js`, `${compiled}.d.ts`)
  }
  return files.sort()
}
