/**
 * docs/test-gateway.md's table of test cards and amounts is the sandbox's own table
 * (src/sandbox/test-cards.ts, TEST_CASES): row for row, cell for cell.
 */
import { TEST_CASES } from "../../src/sandbox"
import { tableAfter } from "../helpers/markdown-table"

test("docs/test-gateway.md lists the sandbox's test cards and amounts exactly", () => {
  const rows = tableAfter("docs/test-gateway.md", /^## Test cards and amounts/)
  expect(rows).toEqual(TEST_CASES.map((c) => [c.outcome, c.card, c.amount, c.where, c.sandbox, c.source]))
})
