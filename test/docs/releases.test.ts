/**
 * CHANGELOG.md, package.json and docs/upgrading.md tell one story of releases (issue 33):
 *
 * - CHANGELOG.md has `## [Unreleased]` on top, then `## [x.y.z] - YYYY-MM-DD` headings, newest first;
 * - package.json and package-lock.json are at the newest of those versions;
 * - every version after the first opens with `### Upgrading from <previous version>`, which links to
 *   docs/upgrading.md's section `## <previous> → <version>`; upgrading.md has those sections and no
 *   other, and names the current version;
 * - every link from CHANGELOG.md to a section of docs/upgrading.md finds its heading (GitHub's anchor;
 *   `npm run docs:check` checks the same links with remark-validate-links).
 */
import { readFileSync } from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8")
const changelog = read("CHANGELOG.md")
const upgrading = read("docs/upgrading.md")
const packageJson = JSON.parse(read("package.json")) as { version: string }
const lock = JSON.parse(read("package-lock.json")) as { version: string; packages: Record<string, { version: string }> }

/** The CHANGELOG's `## [...]` sections, each from its heading to the next. */
const [unreleased, ...releases] = changelog
  .split(/^(?=## \[)/m)
  .slice(1)
  .map((text) => ({ heading: text.slice(0, text.indexOf("\n")), body: text }))
const RELEASE = /^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$/
const versionOf = (heading: string) => heading.match(/^## \[([^\]]+)\]/)![1]
const versions = releases.map((release) => versionOf(release.heading))
const newest = versions[0]

/** GitHub's heading anchor: lower case, only letters, digits, `_`, `-` and spaces, spaces as `-`. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")
const upgradeHeading = (from: string, to: string) => `${from} → ${to}`

test("CHANGELOG.md has [Unreleased] on top, then dated versions, newest first", () => {
  expect(unreleased.heading).toBe("## [Unreleased]")
  expect(releases.length).toBeGreaterThanOrEqual(2)
  expect(releases.map((r) => r.heading).filter((heading) => !RELEASE.test(heading))).toEqual([])
  const dates = releases.map((r) => r.heading.match(RELEASE)![4])
  const isDay = (date: string) => !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date)
  expect(dates.filter((date) => !isDay(date))).toEqual([])
  expect([...dates].sort().reverse()).toEqual(dates)
  const numbers = releases.map((r) => r.heading.match(RELEASE)!.slice(1, 4).map(Number))
  const newerThan = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
  expect([...numbers].sort((a, b) => newerThan(b, a))).toEqual(numbers)
  expect(new Set(versions).size).toBe(versions.length)
})

test("package.json and package-lock.json are at the CHANGELOG's newest version", () => {
  expect([packageJson.version, lock.version, lock.packages[""].version]).toEqual([newest, newest, newest])
})

test("every version after the first opens with how to upgrade from the one before, linking to docs/upgrading.md", () => {
  const problems = releases.slice(0, -1).flatMap((release, i) => {
    const [version, previous] = [versions[i], versions[i + 1]]
    const subsection = release.body.match(/^### (.*)\n([\s\S]*?)(?=^### |(?![\s\S]))/m)
    if (subsection?.[1] !== `Upgrading from ${previous}`) return [`${version}: its first subsection is not "### Upgrading from ${previous}"`]
    const link = `(docs/upgrading.md#${anchor(upgradeHeading(previous, version))})`
    return subsection[2].includes(link) ? [] : [`${version}: "Upgrading from ${previous}" does not link ${link}`]
  })
  expect(problems).toEqual([])
})

test("docs/upgrading.md has a section per upgrade, newest first, and names the current version", () => {
  const sections = [...upgrading.matchAll(/^## (.+ → .+)$/gm)].map((m) => m[1])
  expect(sections).toEqual(versions.slice(0, -1).map((version, i) => upgradeHeading(versions[i + 1], version)))
  expect(upgrading).toContain(`The current version is ${newest}.`)
})

test("every link from CHANGELOG.md to docs/upgrading.md finds its heading", () => {
  const anchors = new Set([...upgrading.matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1])))
  const links = [...changelog.matchAll(/\]\(docs\/upgrading\.md#([^)]+)\)/g)].map((m) => m[1])
  expect(links.length).toBeGreaterThan(0)
  expect(links.filter((target) => !anchors.has(target))).toEqual([])
})
