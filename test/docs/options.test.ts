/**
 * docs/merchant.md's options table is where a merchant looks an option up, so it must name exactly
 * the provider's options: every name in the first column of the table under "## Options" (one or
 * more `code spans`, e.g. `username`, `password`) is a key of altapayOptionsSchema
 * (src/lib/registrations/options.ts), and every key of the schema is named there. The nested
 * tables are held to their schemas the same way: operator.md's `jobs` option table to
 * jobOptionsSchema, finance.md's `payouts.*` table to payoutsOptionsSchema.
 */
import { readFileSync } from "node:fs"
import path from "node:path"
import { altapayOptionsSchema, payoutsOptionsSchema } from "../../src/lib/registrations/options"
import { jobOptionsSchema } from "../../src/lib/registrations/job-options"

const ROOT = path.resolve(__dirname, "../..")
const read = (page: string) => readFileSync(path.join(ROOT, page), "utf8")

/** The first markdown table at or after the line `heading` matches (a table's own header row may be it), as rows of cells. */
function tableAfter(page: string, heading: RegExp): string[][] {
  const lines = read(page).split("\n")
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

/** The option names of a table's first column: its code spans, less `prefix`. */
function namedOptions(page: string, heading: RegExp, prefix = ""): string[] {
  return tableAfter(page, heading).flatMap((cells) => [...cells[0].matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(prefix, "")))
}

const keys = (schema: unknown): string[] => Object.keys((schema as { shape: Record<string, unknown> }).shape)

const tables = [
  { page: "docs/merchant.md", heading: /^## Options$/, schema: altapayOptionsSchema, prefix: "", source: "altapayOptionsSchema (src/lib/registrations/options.ts)" },
  { page: "docs/operator.md", heading: /^\| `jobs` option/, schema: jobOptionsSchema, prefix: "", source: "jobOptionsSchema (src/lib/registrations/job-options.ts)" },
  { page: "docs/finance.md", heading: /^## Options$/, schema: payoutsOptionsSchema, prefix: "payouts.", source: "payoutsOptionsSchema (src/lib/registrations/options.ts)" },
]

describe.each(tables)("the options table of $page", ({ page, heading, schema, prefix, source }) => {
  const named = namedOptions(page, heading, prefix)
  const known = keys(schema)

  test(`names only options of ${source}`, () => {
    expect(named.length).toBeGreaterThan(2)
    expect(named.filter((name) => !known.includes(name)).map((name) => `${page} names \`${prefix}${name}\`, which ${source} does not have`)).toEqual([])
  })

  test(`names every option of ${source}`, () => {
    expect(known.filter((name) => !named.includes(name)).map((name) => `${source} has \`${prefix}${name}\`, which the table in ${page} does not name`)).toEqual([])
  })
})
