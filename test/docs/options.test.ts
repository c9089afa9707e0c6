/**
 * docs/merchant.md's options table is where a merchant looks an option up, so it must name exactly
 * the provider's options: every name in the first column of the table under "## Options" (one or
 * more `code spans`, e.g. `username`, `password`) is a key of altapayOptionsSchema
 * (src/lib/registrations/options.ts), and every key of the schema is named there. The nested
 * tables are held to their schemas the same way: operator.md's `jobs` option table to
 * jobOptionsSchema, finance.md's `payouts.*` table to payoutsOptionsSchema.
 */
import { altapayOptionsSchema, payoutsOptionsSchema } from "../../src/lib/registrations/options"
import { jobOptionsSchema } from "../../src/lib/registrations/job-options"
import { codeSpans, tableAfter } from "../helpers/markdown-table"

/** The option names of a table's first column: its code spans, less `prefix`. */
function namedOptions(page: string, heading: RegExp, prefix = ""): string[] {
  return tableAfter(page, heading).flatMap((cells) => codeSpans(cells[0]).map((name) => name.replace(prefix, "")))
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
