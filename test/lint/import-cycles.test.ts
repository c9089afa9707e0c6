/**
 * No import circle under src/ (type-only imports count too): a circle makes a folder impossible to
 * read or move on its own, and the sandbox had one (env -> return-delivery -> callbacks -> env)
 * until ReturnMode moved into env.ts. Relative imports only: packages cannot close a circle here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : []
  })
}

/** The file a relative specifier names, as TypeScript resolves it here (no extension, or a folder's index). */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier)
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate))
}

function importGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const text = readFileSync(file, "utf8")
      const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]*)"/g)].map((m) => m[1])
      return [file, specifiers.map((s) => resolve(file, s)).filter((target): target is string => target !== undefined)]
    })
  )
}

/** Each circle a depth-first walk meets, as the files around it (the first one repeated at the end). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const done = new Set<string>()
  const stack: string[] = []
  const visit = (node: string): void => {
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      const at = stack.indexOf(next)
      if (at >= 0) found.push([...stack.slice(at), next])
      else if (!done.has(next)) visit(next)
    }
    stack.pop()
    done.add(node)
  }
  for (const node of graph.keys()) if (!done.has(node)) visit(node)
  return found
}

test("the check finds a circle of three files and of one", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a"]],
    ["d", ["d"]],
    ["e", ["a"]],
  ])
  expect(circles(graph)).toEqual([
    ["a", "b", "c", "a"],
    ["d", "d"],
  ])
})

test("no import circle under src/", () => {
  const files = sourceFiles(path.join(ROOT, "src"))
  expect(files.length).toBeGreaterThan(50)
  const graph = importGraph(files)
  expect([...graph.values()].flat().length).toBeGreaterThan(200)
  expect(circles(graph).map((circle) => circle.map((file) => path.relative(ROOT, file)).join(" -> "))).toEqual([])
})
