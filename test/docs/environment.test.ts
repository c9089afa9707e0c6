/**
 * The ALTAPAY_* environment variables the docs name and the ones the code reads are the same set:
 *
 * - every ALTAPAY_* name in README.md or docs/*.md is read (`env.NAME` or `env["NAME"]`) by some
 *   code of the repository (src/, bin/, the example configs, demo/, bench/, tools/, scripts/,
 *   integration-tests/, test/, jest.config.js);
 * - every ALTAPAY_* a store's configuration reads (medusa-config.example.ts,
 *   medusa-config.multi.example.ts, demo/medusa-config.ts, src/, bin/) is a row of docs/merchant.md's
 *   environment table;
 * - every other ALTAPAY_* the repository reads (the test run's) is named in README.md or docs/*.md
 *   (docs/development.md has their table).
 *
 * ALTAPAY_* names that are constants, not variables (ALTAPAY_PROVIDER_ID, ...), are never read
 * from `env`, so they are left alone.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { DOC_PAGES, REPO_ROOT } from "../helpers/doc-pages"

const ROOT = REPO_ROOT
const PAGES = DOC_PAGES
const CODE_DIRS = ["src", "bin", "demo", "bench", "tools", "scripts", "integration-tests", "test", "storefronts"]
const CODE_FILES = ["medusa-config.example.ts", "medusa-config.multi.example.ts", "jest.config.js"]
const STORE_CONFIG = (file: string) => /^medusa-config(\.multi)?\.example\.ts$/.test(file) || file === "demo/medusa-config.ts" || /^(src|bin)\//.test(file)
const NAME = /ALTAPAY_[A-Z0-9_]*[A-Z0-9]/g
const READ = /env(?:\.|\[["'])(ALTAPAY_[A-Z0-9_]*[A-Z0-9])/g

function codeFiles(dir: string): string[] {
  if (!existsSync(path.join(ROOT, dir))) return []
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const child = `${dir}/${entry.name}`
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : codeFiles(child)
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) ? [child] : []
  })
}

/** Variable -> the files that read it. */
const reads = new Map<string, string[]>()
for (const file of [...CODE_DIRS.flatMap(codeFiles), ...CODE_FILES]) {
  for (const match of readFileSync(path.join(ROOT, file), "utf8").matchAll(READ)) {
    reads.set(match[1], [...new Set([...(reads.get(match[1]) ?? []), file])])
  }
}

/** Variable -> the pages that name it. */
const documented = new Map<string, string[]>()
for (const page of PAGES) {
  for (const match of readFileSync(path.join(ROOT, page), "utf8").matchAll(NAME)) {
    documented.set(match[0], [...new Set([...(documented.get(match[0]) ?? []), page])])
  }
}

/** The first column of docs/merchant.md's "Environment variables" table. */
function merchantTable(): string[] {
  const lines = readFileSync(path.join(ROOT, "docs/merchant.md"), "utf8").split("\n")
  const start = lines.findIndex((line) => line.startsWith("## Environment variables"))
  const first = lines.findIndex((line, i) => i > start && line.startsWith("|"))
  const names: string[] = []
  for (let i = first + 2; lines[i]?.startsWith("|"); i++) names.push(...[...lines[i].split("|")[1].matchAll(NAME)].map((m) => m[0]))
  return names
}

test("every ALTAPAY_* variable README.md and docs/ name is read by the code", () => {
  expect(documented.size).toBeGreaterThan(10)
  const unread = [...documented].filter(([name]) => !reads.has(name)).map(([name, pages]) => `${name} (named in ${pages.join(", ")}) is read by no code`)
  expect(unread).toEqual([])
})

test("every ALTAPAY_* variable a store's config reads is in docs/merchant.md's environment table", () => {
  const table = merchantTable()
  expect(table.length).toBeGreaterThan(5)
  const storeReads = [...reads].filter(([, files]) => files.some(STORE_CONFIG))
  expect(storeReads.length).toBeGreaterThan(5)
  const missing = storeReads
    .filter(([name]) => !table.includes(name))
    .map(([name, files]) => `${name} (read by ${files.filter(STORE_CONFIG).join(", ")}) is not in docs/merchant.md's environment table`)
  expect(missing).toEqual([])
})

test("every other ALTAPAY_* variable the repository reads is named in README.md or docs/", () => {
  const missing = [...reads].filter(([name]) => !documented.has(name)).map(([name, files]) => `${name} (read by ${files.join(", ")}) is named on no page of README.md or docs/`)
  expect(missing).toEqual([])
})
