/**
 * docs/finance.md's Exports section is where finance looks up what a CSV column means, so each of
 * its tables must name exactly the columns the export writes, in the file's order: the first
 * column's `code span` of every row under "### Payouts list", "### A funding's lines" and
 * "### Exceptions", held to the header of PAYOUT_CSV, LINE_CSV and EXCEPTION_CSV
 * (src/api/admin/altapay/_lib/payouts-csv.ts). A column added to an export without a row, or a row
 * left for a column that is gone, fails here.
 */
import { EXCEPTION_CSV, LINE_CSV, PAYOUT_CSV } from "../../src/api/admin/altapay/_lib/payouts-csv"
import { codeSpans, tableAfter } from "../helpers/markdown-table"

const PAGE = "docs/finance.md"

const exports = [
  { section: "Payouts list", table: PAYOUT_CSV, source: "PAYOUT_CSV (GET /admin/altapay/payouts/export)" },
  { section: "A funding's lines", table: LINE_CSV, source: "LINE_CSV (GET /admin/altapay/payouts/:id/export)" },
  { section: "Exceptions", table: EXCEPTION_CSV, source: "EXCEPTION_CSV (GET /admin/altapay/payout-exceptions/export)" },
]

describe.each(exports)(`the columns ${PAGE} describes under "### $section"`, ({ section, table, source }) => {
  // One column a row, named by the row's first code span.
  const described = tableAfter(PAGE, new RegExp(`^### ${section}$`)).map((cells) => codeSpans(cells[0])[0] ?? cells[0])
  const written = [...table.header]

  test(`are columns ${source} writes`, () => {
    expect(described.length).toBeGreaterThan(5)
    expect(described.filter((name) => !written.includes(name)).map((name) => `${PAGE} describes \`${name}\`, which ${source} does not write`)).toEqual([])
  })

  test(`are every column ${source} writes`, () => {
    expect(written.filter((name) => !described.includes(name)).map((name) => `${source} writes \`${name}\`, which ${PAGE} does not describe`)).toEqual([])
  })

  test("are in the file's order, each once", () => {
    expect(described).toEqual(written)
  })
})
