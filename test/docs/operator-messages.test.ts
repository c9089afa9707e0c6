/**
 * docs/operator.md tells the person on call what each message means, so every message it quotes
 * must be one the code still prints. A quoted message is:
 *
 * - a `code span` in the first column ("What you see") of the table under "## Troubleshooting";
 * - a "double-quoted" text (straight or curly quotes) that begins with `AltaPay ` anywhere on the
 *   page (the plugin's notices and log lines all begin so);
 *
 * `…`, `...` and `<placeholders>` stand for what the code fills in: the text between them must
 * each appear in a file under src/ (or demo/ and bin/, for the rows that quote them), compared with
 * runs of white space as one space. A message the code puts together from parts (`prefix: ${error}`)
 * may be found in parts: a piece not found whole is split at each ": " and its parts looked for
 * (`checkoutUrl: must use https://` is an option's name and zod's message). Examples with made-up
 * values (the jobs' log lines in a fenced block) are not quotes and are not checked. Messages
 * other programs print (Medusa, npm, Node, Vite) are listed in NOT_OURS below and skipped; a new
 * such row needs its entry there.
 */
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")
const PAGE = "docs/operator.md"
const page = readFileSync(path.join(ROOT, PAGE), "utf8")

/** Printed by Medusa, npm, Node or Vite, not by this repository's code. */
const NOT_OURS = [
  "An error occurred while processing payment.webhook_received",
  'The "db/migrate" command must be run inside a Medusa project',
  'Unable to resolve plugin "@medusajs/draft-order"',
  "Cannot find module 'ts-node'",
  "Missing: @swc/core-darwin-arm64@ from lock file",
]

function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const child = `${dir}/${entry.name}`
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : files(child)
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [child] : []
  })
}

/** The code's text, with the escapes a string literal may use for a quote or a line break undone. */
const code = ["src", "demo", "bin"]
  .flatMap(files)
  .map((file) => readFileSync(path.join(ROOT, file), "utf8"))
  .join("\n")
  .replace(/\\n/g, "\n")
  .replace(/\\(["'`])/g, "$1")
  .replace(/\s+/g, " ")

function quoted(): string[] {
  const lines = page.split("\n")
  const messages: string[] = []
  // The Troubleshooting table's first column.
  const start = lines.findIndex((line) => line === "## Troubleshooting")
  for (let i = lines.findIndex((line, j) => j > start && line.startsWith("|")) + 2; lines[i]?.startsWith("|"); i++) {
    const firstCell = lines[i].match(/^\|((?:[^|`]|`[^`]*`)*)\|/)?.[1] ?? ""
    messages.push(...[...firstCell.matchAll(/`([^`]+)`/g)].map((m) => m[1]))
  }
  // Quoted texts that begin with "AltaPay ".
  const prose = page.replace(/\n/g, " ")
  messages.push(...[...prose.matchAll(/["“](AltaPay [^"”]+)["”]/g)].map((m) => m[1].replace(/\s+/g, " ")))
  return [...new Set(messages)]
}

/** The literal pieces of a quoted message, between its placeholders. */
const pieces = (message: string) =>
  message
    .split(/…|\.\.\.|<[^>]+>/)
    .map((piece) => piece.replace(/\s+/g, " ").trim())
    .filter((piece) => piece.length > 0)

/** Whether the code has `piece`, whole or (split at ": ") in parts. */
function printed(piece: string): boolean {
  if (piece === "" || code.includes(piece)) return true
  const parts = piece.split(": ")
  return parts.length > 1 && parts.every((part) => printed(part.trim()))
}

const messages = quoted().filter((message) => !NOT_OURS.includes(message))

test(`${PAGE} quotes messages`, () => {
  expect(messages.length).toBeGreaterThan(25)
})

test(`every message ${PAGE} quotes is printed by the code`, () => {
  const missing = messages.flatMap((message) =>
    pieces(message)
      .filter((piece) => !printed(piece))
      .map((piece) => `${PAGE} quotes "${message}", but no file under src/, demo/ or bin/ has "${piece}"`)
  )
  expect(missing).toEqual([])
})
