/** Reading the tables of the repository's markdown pages, for the tests that hold a page to the code. */
import { readFileSync } from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")

/** A page of the repository (`docs/finance.md`), as text. */
const readPage = (page: string): string => readFileSync(path.join(ROOT, page), "utf8")

/** The first markdown table at or after the line `heading` matches (a table's own header row may be it), as rows of cells. */
export function tableAfter(page: string, heading: RegExp): string[][] {
  const lines = readPage(page).split("\n")
  const start = lines.findIndex((line) => heading.test(line))
  if (start < 0) throw new Error(`${page}: no line matching ${heading}`)
  const first = lines.findIndex((line, i) => i >= start && line.startsWith("|"))
  const rows: string[][] = []
  for (let i = first + 2; i < lines.length && lines[i].startsWith("|"); i++) {
    // Split on | that is not escaped (\|) and not inside a code span.
    const cells: string[] = []
    let cell = ""
    let inCode = false
    const line = lines[i].trim().slice(1, -1)
    for (let c = 0; c < line.length; c++) {
      const ch = line[c]
      if (ch === "`") inCode = !inCode
      if (ch === "|" && !inCode && line[c - 1] !== "\\") {
        cells.push(cell.trim())
        cell = ""
      } else cell += ch
    }
    cells.push(cell.trim())
    rows.push(cells)
  }
  return rows
}

/** The `code spans` of a cell, without their backticks. */
export const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1])
