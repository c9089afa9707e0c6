/**
 * What a merchant reading the docs found contradicting the code or each other (issue 41), held so it
 * cannot come back:
 *
 * - every table row has as many cells as its header (GitHub drops the extra ones, and with them
 *   what they said);
 * - every command the package ships (package.json `bin`) is named in README.md and docs/merchant.md;
 * - every install section that installs the tarball runs `npx medusa db:migrate` after it;
 * - every page that shows `git apply` of the kit's patch also gives `git apply -p3`, for a storefront
 *   that is the root of its repository;
 * - every relative link of a page the package ships leads to a file the package ships;
 * - a passage that names two tables of one of the plugin's modules names all of them (the
 *   migrations' `create table`s);
 * - the admin's AltaPay pages are called by their sidebar labels;
 * - no paragraph is a cut-off copy of the one after it;
 * - every path AltaPay posts to on the store is named where reachability is checked (go-live's
 *   checklist, the runbook), and the runbook's reachability test names the 403 of `callbackSources`.
 */
import { readdirSync } from "node:fs"
import path from "node:path"
import { REPO_ROOT } from "../helpers/doc-pages"
import { ALL_PAGES, PACKAGE, linesOf, linkTarget, prose, readPage, relativeLinks, section, shipped } from "../helpers/markdown-pages"

/** GitHub's cell count of a table row: cells split on `|` not escaped (`\|`), code spans included. */
const cellCount = (row: string) =>
  row
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/).length

test("every table row has as many cells as its header", () => {
  const problems = ALL_PAGES.flatMap((page) => {
    const lines = linesOf(readPage(page))
    const found: string[] = []
    for (let i = 0; i < lines.length - 1; i++) {
      if (lines[i].fenced || !lines[i].line.trim().startsWith("|") || !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1].line)) continue
      const header = cellCount(lines[i].line)
      let row = i + 2
      for (; row < lines.length && lines[row].line.trim().startsWith("|"); row++) {
        const cells = cellCount(lines[row].line)
        if (cells !== header) found.push(`${page}:${lines[row].number}: ${cells} cells under a header of ${header}`)
      }
      i = row - 1
    }
    return found
  })
  expect(problems).toEqual([])
})

test("every command the package ships is named in README.md and docs/merchant.md", () => {
  const commands = Object.keys(PACKAGE.bin)
  expect(commands.length).toBeGreaterThanOrEqual(2)
  const missing = ["README.md", "docs/merchant.md"].flatMap((page) =>
    commands.filter((command) => !prose(readPage(page)).includes(`npx ${command}`)).map((command) => `${page} does not name \`npx ${command}\``)
  )
  expect(missing).toEqual([])
})

test("every install section runs npx medusa db:migrate after installing the tarball", () => {
  const installs = ALL_PAGES.flatMap((page) =>
    [...prose(readPage(page)).matchAll(/^#+ .*\b(Install|Quickstart)\b.*$/gim)].map((m) => ({
      page,
      text: section(readPage(page), new RegExp(`^${m[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`)),
    }))
  )
  const pages = [...new Set(installs.filter(({ text }) => /npm install \S*\.tgz/.test(text)).map(({ page }) => page))]
  expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/merchant.md", "docs/quickstart.md"]))
  // Some install section of the page (the steps, or the page that is all steps) migrates after installing.
  const migrates = (page: string) => installs.some((i) => i.page === page && /npm install \S*\.tgz[\s\S]*npx medusa db:migrate/.test(i.text))
  expect(pages.filter((page) => !migrates(page)).map((page) => `${page}: installs the tarball without npx medusa db:migrate after it`)).toEqual([])
})

/** What a page says now: a released CHANGELOG section is history, as it was released. */
const current = (page: string) => {
  const text = readPage(page)
  return page === "CHANGELOG.md" ? text.slice(0, text.search(/^## \[\d/m)) : text
}

test("every page that applies the kit's patch gives -p3 for a storefront at its repository's root", () => {
  const pages = ALL_PAGES.filter((page) => /git apply (?!-p3)\S*altapay\.patch/.test(current(page)))
  expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/storefront.md"]))
  expect(pages.filter((page) => !/git apply -p3 \S*altapay\.patch/.test(current(page)))).toEqual([])
})

test("every relative link of a page the package ships leads to a file the package ships", () => {
  const pages = ALL_PAGES.filter(shipped)
  expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/merchant.md", "CHANGELOG.md", "storefronts/nextjs-starter/README.md"]))
  const broken = pages.flatMap((page) =>
    relativeLinks(readPage(page))
      .map((target) => ({ target, to: linkTarget(page, target) }))
      .filter(({ to }) => !to.exists || !(to.folder ? PACKAGE.files.some((entry) => entry === to.path || entry.startsWith(`${to.path}/`)) : shipped(to.path)))
      .map(({ target, to }) => `${page} links ${target} (${to.path}), which ${to.exists ? "the package does not ship" : "does not exist"}`)
  )
  expect([...new Set(broken)]).toEqual([])
})

/** Module folder -> the tables its migrations create. */
const MODULE_TABLES = readdirSync(path.join(REPO_ROOT, "src/modules")).map((module) => {
  const folder = `src/modules/${module}/migrations`
  const tables = readdirSync(path.join(REPO_ROOT, folder)).flatMap((file) => [...readPage(`${folder}/${file}`).matchAll(/create table if not exists "(\w+)"/g)].map((m) => m[1]))
  return { module, tables: [...new Set(tables)] }
})

test("a passage that names two tables of a plugin module names all of them", () => {
  expect(MODULE_TABLES.find((m) => m.module === "altapay-payouts")?.tables.length).toBeGreaterThanOrEqual(4)
  const problems = ALL_PAGES.flatMap((page) =>
    prose(readPage(page))
      .split(/\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )/)
      .flatMap((passage) =>
        MODULE_TABLES.filter(({ tables }) => tables.filter((t) => passage.includes(t)).length >= 2)
          .filter(({ tables }) => tables.some((t) => !passage.includes(t)))
          .map(({ module, tables }) => `${page}: "${passage.trim().slice(0, 70)}…" names some of ${module}'s tables, not ${tables.filter((t) => !passage.includes(t)).join(", ")}`)
      )
  )
  expect(problems).toEqual([])
})

test("the admin's AltaPay pages are called by their sidebar labels", () => {
  const label = /label: "([^"]+)"/.exec(readPage("src/admin/routes/payouts/page.tsx"))![1]
  expect(label).toBe("AltaPay payouts")
  const other = ALL_PAGES.filter((page) => new RegExp(`(?<!${label.split(" ")[0]} )\\bPayouts page`).test(prose(current(page))))
  expect(other).toEqual([])
})

test("no paragraph is a cut-off copy of the paragraph after it", () => {
  const problems = ALL_PAGES.flatMap((page) => {
    const paragraphs = prose(readPage(page))
      .split(/\n\s*\n/)
      .map((p) => p.trim().replace(/\s+/g, " "))
    return paragraphs
      .slice(0, -1)
      .map((p, i) => ({ p, next: paragraphs[i + 1], start: p.replace(/[\s…."')\]]+$/, "") }))
      .filter(({ p, next, start }) => start.length >= 20 && p !== next && next.startsWith(start))
      .map(({ p }) => `${page}: "${p.slice(0, 80)}" is the start of the next paragraph`)
  })
  expect(problems).toEqual([])
})

/** The paths AltaPay posts to on the store: the notification, the customer's return, a saved card's set-up. */
const ALTAPAY_PATHS = ["/hooks/payment/altapay_", "/altapay/return/", "/altapay/saved-card-return/"]

test("go-live's checklist and the runbook's reachability test name every path AltaPay posts to", () => {
  const checklist = section(readPage("docs/go-live.md"), /^## Checklist/)
  const reachability = section(readPage("docs/runbook-callbacks.md"), /^## 2\. Can AltaPay reach the store/)
  expect(ALTAPAY_PATHS.filter((p) => !checklist.includes(p)).map((p) => `go-live checklist: ${p}`)).toEqual([])
  expect(ALTAPAY_PATHS.filter((p) => !reachability.includes(p)).map((p) => `runbook reachability: ${p}`)).toEqual([])
})

test("the runbook's reachability test says what callbackSources answers a post from elsewhere", () => {
  const reachability = section(readPage("docs/runbook-callbacks.md"), /^## 2\. Can AltaPay reach the store/)
  expect(reachability).toMatch(/callbackSources[\s\S]*403|403[\s\S]*callbackSources/)
})

test("go-live says what saved cards need from AltaPay: agreements on the terminal", () => {
  const ask = section(readPage("docs/go-live.md"), /^## What to ask AltaPay for/)
  expect(ask).toMatch(/savedCards[\s\S]*agreement/i)
})

test("no page says callbackSources is off for a local sandbox: nothing turns it off", () => {
  const saying = ALL_PAGES.filter((page) => /callbackSources[^\n|]*\|[^\n]*Off for a local sandbox/.test(readPage(page)))
  expect(saying).toEqual([])
})

test("every page that runs npm pack says the ts-node error it prints is harmless", () => {
  const packing = ALL_PAGES.filter((page) => linesOf(readPage(page)).some((l) => l.fenced && /^\s*(npm ci && )?npm pack\b/.test(l.line)))
  expect(packing).toEqual(expect.arrayContaining(["README.md", "docs/merchant.md", "docs/quickstart.md", "docs/upgrading.md"]))
  const silent = packing.filter((page) => !/`ts-node cannot be loaded[^`]*`[\s\S]{0,300}harmless/.test(prose(readPage(page))))
  expect(silent).toEqual([])
})

/** The pictures the browser specs and suites take for the docs: `docScreenshot(target, "name")` -> docs/images/name.png. */
const SPEC_PICTURES = readdirSync(path.join(REPO_ROOT, "integration-tests/admin"))
  .filter((file) => file.endsWith(".spec.ts") || file.endsWith(".suite.ts"))
  .flatMap((file) => [...readPage(`integration-tests/admin/${file}`).matchAll(/docScreenshot\([^,]+,\s*"([\w-]+)"/g)].map((m) => `docs/images/${m[1]}.png`))

test("every picture a page shows is taken by a browser spec (npm run docs:screenshots), and every one taken is shown", () => {
  const shown = ALL_PAGES.flatMap((page) => [...prose(readPage(page)).matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => linkTarget(page, m[1]).path))
  expect(SPEC_PICTURES.length).toBeGreaterThanOrEqual(5)
  expect([...new Set(shown)].filter((picture) => !SPEC_PICTURES.includes(picture)).map((p) => `${p} is shown but no spec takes it`)).toEqual([])
  expect(SPEC_PICTURES.filter((picture) => !shown.includes(picture)).map((p) => `${p} is taken but no page shows it`)).toEqual([])
  const files = readdirSync(path.join(REPO_ROOT, "docs/images")).map((file) => `docs/images/${file}`)
  expect(files.sort()).toEqual([...SPEC_PICTURES].sort())
})

test("the merchant's pages hold what a merchant does: no issue numbers, no test files (those are on the development pages)", () => {
  const MERCHANT_PAGES = ["docs/merchant.md", "docs/quickstart.md", "docs/payment-methods.md"]
  const contributorDetail = MERCHANT_PAGES.flatMap((page) =>
    [
      ...prose(readPage(page))
        .replace(/\]\([^)]*\)/g, "]")
        .matchAll(/\b[Ii]ssues? \d+|`(?:test|integration-tests)\/[^`]*`/g),
    ].map((m) => `${page}: ${m[0]}`)
  )
  expect(contributorDetail).toEqual([])
})
