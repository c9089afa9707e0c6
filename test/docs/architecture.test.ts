/**
 * docs/architecture.md is the map a newcomer reads first, so it must match the tree: every path
 * it names exists, every folder of src/ and of src/lib/ is named as a folder, every other folder
 * under src/ lies under a named path, and every job, workflow, route and the middlewares file is
 * named. Moving or adding one without updating the page fails here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")
const PAGE = "docs/architecture.md"
const page = readFileSync(path.join(ROOT, PAGE), "utf8")

/** Every `code span` on the page that names a path in the repository (has a slash or a file extension). */
const named: string[] = [...page.matchAll(/`([^`\s]+)`/g)]
  .map((m) => m[1])
  .filter((text) => /^(src|test|integration-tests|tools|demo|bench|storefronts|bin|docs|scripts)\//.test(text) || /^[\w.-]+\.(ts|mjs|js|json|md)$/.test(text))

/** Folders with files in them (an empty one, such as the src/migrations a build leaves, is not in git). */
function folders(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && files(`${dir}/${entry.name}`, /./).length > 0)
    .flatMap((entry) => {
      const child = `${dir}/${entry.name}`
      return [child, ...folders(child)]
    })
}

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const child = `${dir}/${entry.name}`
    if (entry.isDirectory()) return files(child, pattern)
    return pattern.test(child) ? [child] : []
  })
}

const withoutSlash = (p: string) => p.replace(/\/$/, "")

test(`every path ${PAGE} names exists`, () => {
  expect(named.length).toBeGreaterThan(40)
  expect(named.filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([])
})

test(`every folder of src/ and src/lib/ is named in ${PAGE}, and every deeper folder lies under a named path`, () => {
  const explicit = new Set(named.filter((p) => p.endsWith("/")).map(withoutSlash))
  const all = folders("src")
  const mustBeNamed = all.filter((dir) => dir.split("/").length === 2 || dir.startsWith("src/lib/"))
  expect(mustBeNamed.filter((dir) => !explicit.has(dir)).map((dir) => `${dir}/`)).toEqual([])
  const covered = (dir: string) => named.some((p) => withoutSlash(p) === dir || p.startsWith(`${dir}/`))
  expect(all.filter((dir) => !covered(dir))).toEqual([])
})

test(`every job, workflow, route and the middlewares are named in ${PAGE}`, () => {
  const entryPoints = [
    ...files("src/jobs", /\.ts$/),
    ...files("src/workflows", /^src\/workflows\/[^/]+\.ts$/),
    ...files("src/api", /\/route\.ts$/),
    "src/api/middlewares.ts",
    ...(existsSync(path.join(ROOT, "src/subscribers")) ? files("src/subscribers", /\.ts$/) : []),
    ...(existsSync(path.join(ROOT, "src/modules")) ? folders("src/modules").map((dir) => `${dir}/`) : []),
  ]
  expect(entryPoints.filter((p) => !named.includes(p))).toEqual([])
})
