/**
 * The layering the folder tree promises, enforced by `npm run lint` (eslint.config.mjs): the
 * AltaPay client imports nothing from Medusa, and routes, workflows, the shared library and the
 * admin import nothing from the provider's folder. Each case lints a probe file through the real
 * ESLint command line, as CI does.
 */
import { execFile } from "node:child_process"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")

interface LintMessage {
  ruleId: string | null
  message: string
}

/** Lints each probe (a file name in the tree, and its source) with the repository's ESLint config, in one ESLint process. */
function lint(probes: Array<[filename: string, source: string]>): Promise<LintMessage[][]> {
  const script = `
    const { ESLint } = require("eslint")
    let input = ""
    process.stdin.on("data", (d) => (input += d)).on("end", async () => {
      const eslint = new ESLint({ cwd: process.cwd() })
      const reports = []
      for (const [filePath, source] of JSON.parse(input)) reports.push((await eslint.lintText(source, { filePath }))[0].messages)
      process.stdout.write(JSON.stringify(reports))
    })`
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ["-e", script], { cwd: ROOT }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`eslint failed: ${stderr}`))
      resolve(JSON.parse(stdout) as LintMessage[][])
    })
    child.stdin!.end(JSON.stringify(probes))
  })
}

const restricted = (messages: LintMessage[]) => messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message)

test("src/altapay may not import Medusa; the provider may", async () => {
  const source = 'import { MedusaError } from "@medusajs/framework/utils"\nexport const error = MedusaError\n'
  const [client, provider] = await lint([
    ["src/altapay/probe.ts", source],
    ["src/providers/altapay/probe.ts", source],
  ])
  expect(restricted(client)).toEqual([expect.stringContaining("src/altapay is a framework-free AltaPay client")])
  expect(restricted(provider)).toEqual([])
}, 60_000)

test("routes, workflows, src/lib and the admin may not import from src/providers; src/lib is theirs to share", async () => {
  const fromProvider = 'import { AltaPayProviderService } from "../../providers/altapay/service"\nexport const service = AltaPayProviderService\n'
  const fromLib = 'import { parseAltaPayOptions } from "../../lib/registrations/options"\nexport const parse = parseAltaPayOptions\n'
  const reports = await lint([
    ["src/api/store/probe.ts", fromProvider],
    ["src/workflows/steps/probe.ts", fromProvider],
    ["src/lib/probe.ts", fromProvider.replace("../../providers", "../providers")],
    ["src/admin/widgets/probe.ts", fromProvider],
    ["src/api/store/probe.ts", fromLib],
    // Files merely named "providers" (the admin's registration list, its route) are not the provider.
    ["src/admin/components/probe.tsx", 'import { useAltaPayProviders } from "../lib/providers"\nexport const use = useAltaPayProviders\n'],
  ])
  for (const report of reports.slice(0, 4)) expect(restricted(report)).toEqual([expect.stringContaining("Only the provider uses src/providers")])
  expect(restricted(reports[4])).toEqual([])
  expect(restricted(reports[5])).toEqual([])
}, 60_000)

test("only tests import integration-tests/; the demo, the bench, tools and the plugin use tools/", async () => {
  const fromTests = (up: string) => `import { seedStore } from "${up}integration-tests/setup/store"\nexport const seed = seedStore\n`
  const reports = await lint([
    ["demo/src/scripts/probe.ts", fromTests("../../../")],
    ["demo/lib/probe.ts", fromTests("../../")],
    ["tools/store/probe.ts", fromTests("../../")],
    ["src/lib/payment-data/probe.ts", fromTests("../../../")],
    ["src/altapay/probe.ts", fromTests("../../")],
    ["bench/probe.ts", fromTests("../")],
    ["integration-tests/admin/probe.ts", 'import { seedStore } from "../setup/store"\nexport const seed = seedStore\n'],
    ["test/lib/probe.ts", fromTests("../../")],
    ["demo/src/scripts/probe.ts", 'import { seedStore } from "../../../tools/store/seed"\nexport const seed = seedStore\n'],
  ])
  for (const report of reports.slice(0, 6)) expect(restricted(report)).toEqual([expect.stringContaining("Only tests import integration-tests/")])
  for (const report of reports.slice(6)) expect(restricted(report)).toEqual([])
}, 60_000)

test("src/ may not import tools/ (the package ships src/ only); the demo and the tests may", async () => {
  const fromTools = (up: string) => `import { seedStore } from "${up}tools/store/seed"\nexport const seed = seedStore\n`
  const reports = await lint([
    ["src/lib/payment-data/probe.ts", fromTools("../../../")],
    ["src/altapay/probe.ts", fromTools("../../")],
    ["src/jobs/probe.ts", fromTools("../../")],
    ["demo/lib/probe.ts", fromTools("../../")],
    ["integration-tests/setup/probe.ts", fromTools("../../")],
  ])
  for (const report of reports.slice(0, 3)) expect(restricted(report)).toEqual([expect.stringContaining("src/ may not import tools/")])
  for (const report of reports.slice(3)) expect(restricted(report)).toEqual([])
}, 60_000)
