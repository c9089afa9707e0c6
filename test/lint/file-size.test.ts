/**
 * One file one job: no file under src/ is over 400 lines, so a newcomer reads any of them in one
 * sitting. ESLint's max-lines rule says the same while editing (eslint.config.mjs); this test holds
 * even where lint is not run.
 */
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")
const MAX_LINES = 400

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [full] : []
  })
}

/** Lines as an editor (and ESLint's max-lines) counts them: a final newline ends a line, it does not start one. */
const lineCount = (text: string): number => text.split("\n").length - (text.endsWith("\n") ? 1 : 0)

test(`no file under src/ is over ${MAX_LINES} lines`, () => {
  const files = sourceFiles(path.join(ROOT, "src"))
  expect(files.length).toBeGreaterThan(50)
  const tooLong = files
    .map((file) => ({ file: path.relative(ROOT, file), lines: lineCount(readFileSync(file, "utf8")) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`)
  expect(tooLong).toEqual([])
})
