#!/usr/bin/env node
// Type-checks the three TypeScript projects at once (each is single-threaded; CI has 2 cores):
// the package (root tsconfig), the tools that are not shipped (bench, demo, the config example),
// and the admin extensions (bundled by Vite, so tsc only checks them).
const { spawn } = require("node:child_process")
const path = require("node:path")

const tsc = require.resolve("typescript/bin/tsc")
const projects = ["tsconfig.json", "tsconfig.tools.json", "src/admin/tsconfig.json"]
const root = path.resolve(__dirname, "..")

Promise.all(
  projects.map(
    (project) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [tsc, "--noEmit", "-p", project], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
        let output = ""
        child.stdout.on("data", (d) => (output += d))
        child.stderr.on("data", (d) => (output += d))
        child.on("exit", (code) => resolve({ project, code, output }))
      })
  )
).then((results) => {
  const failed = results.filter((r) => r.code !== 0)
  for (const r of failed) process.stderr.write(`\ntsc -p ${r.project} failed:\n${r.output}`)
  if (failed.length === 0) console.log(`typecheck: ${projects.join(", ")} ok`)
  process.exit(failed.length === 0 ? 0 : 1)
})
