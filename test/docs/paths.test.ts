/**
 * Every repository path README.md and docs/*.md name in a `code span` exists. A path is a span
 * that starts with one of the repository's top-level folders (src/, test/, integration-tests/,
 * tools/, storefronts/, demo/, bench/, bin/, scripts/, docs/) and has no spaces, placeholders
 * (`<id>`, `…`, `*`); a trailing `/` names a folder. Left out: spans inside fenced code blocks
 * (commands, not citations); paths under a folder .gitignore lists (`demo/.data/`: made by a run);
 * and on docs/altapay-wire-facts.md, paths whose first two segments are no folder of this repository:
 * they name files of AltaPay's own repositories (`src/Api/...` of AltaPay/api-php), which the page
 * names beside them.
 */
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { DOC_PAGES, REPO_ROOT } from "../helpers/doc-pages"

const ROOT = REPO_ROOT
const PAGES = DOC_PAGES
const FOLDERS = ["src", "test", "integration-tests", "tools", "storefronts", "demo", "bench", "bin", "scripts", "docs"]
const PATH = new RegExp(`^(${FOLDERS.join("|")})/[^\\s<>…*{}]*$`)

/** The page's text outside fenced code blocks. */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "")

const IGNORED = readFileSync(path.join(ROOT, ".gitignore"), "utf8")
  .split("\n")
  .filter((line) => line.includes("/") && !line.startsWith("#") && !line.startsWith("*"))
  .map((line) => line.trim().replace(/\/?$/, "/"))
const ignored = (span: string) => IGNORED.some((dir) => `${span}/`.startsWith(dir))
const FOREIGN_PAGE = "docs/altapay-wire-facts.md"
const ours = (span: string) => existsSync(path.join(ROOT, span.split("/").slice(0, 2).join("/")))

const cited = PAGES.flatMap((page) =>
  [...prose(readFileSync(path.join(ROOT, page), "utf8")).matchAll(/`([^`\n]+)`/g)]
    .map((m) => m[1].replace(/[.,;:]$/, ""))
    .filter((span) => PATH.test(span) && !ignored(span) && (page !== FOREIGN_PAGE || ours(span)))
    .map((span) => ({ page, span }))
)

test("README.md and docs/ cite repository paths in code spans", () => {
  expect(cited.length).toBeGreaterThan(100)
})

test("every repository path in a code span of README.md and docs/ exists", () => {
  const missing = cited.filter(({ span }) => !existsSync(path.join(ROOT, span))).map(({ page, span }) => `${page}: \`${span}\` does not exist`)
  expect([...new Set(missing)]).toEqual([])
})

test("no page cites the founders' working notes, which are neither in the repository nor the package", () => {
  // The interface spec and design notes lived beside the repository while it was written; a reader has neither.
  const notes = /design notes|altapay-reference\.md|design\.md|\.\.\/shared\//i
  const citing = PAGES.filter((page) => notes.test(readFileSync(path.join(ROOT, page), "utf8")))
  expect(citing).toEqual([])
})
