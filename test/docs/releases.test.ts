/**
 * CHANGELOG.md, package.json and docs/upgrading.md tell one story of releases (issues 33 and 41):
 *
 * - CHANGELOG.md has `## [Unreleased]` on top, then `## [x.y.z] - YYYY-MM-DD` headings, newest first;
 * - a released section never changes: each is held to its hash in test/docs/released-changelog.json
 *   (a fresh clone has no tags to compare with; `npm run release` adds the hash). Changes after a
 *   release go under [Unreleased] (issue 41: 25 commits after "Release 0.2.0" were filed under 0.2.0);
 * - package.json and package-lock.json are at the newest of those versions;
 * - every version after the first opens with `### Upgrading from <previous version>`, which links to
 *   docs/upgrading.md's section `## <previous> → <version>`; upgrading.md has those sections, and
 *   before them at most one `## <newest> → Unreleased` (what the next release will need, which
 *   [Unreleased]'s own `### Upgrading from <newest>` links to), and names the current version;
 * - every link from CHANGELOG.md to a section of docs/upgrading.md finds its heading (GitHub's anchor;
 *   `npm run docs:check` checks the same links with remark-validate-links);
 * - `npm run release` (scripts/release.js) turns these files into a release that passes the same checks.
 */
import { readFileSync } from "node:fs"
import path from "node:path"

interface ReleaseFiles {
  changelog: string
  upgrading: string
  packageJson: string
  lock: string
  hashes: string
}
interface Section {
  heading: string
  version: string
  text: string
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const release = require("../../scripts/release") as {
  changelogSections(changelog: string): Section[]
  sectionHash(text: string): string
  cutRelease(files: ReleaseFiles, version: string, date: string): ReleaseFiles
}

const ROOT = path.resolve(__dirname, "../..")
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8")
const REPOSITORY: ReleaseFiles = {
  changelog: read("CHANGELOG.md"),
  upgrading: read("docs/upgrading.md"),
  packageJson: read("package.json"),
  lock: read("package-lock.json"),
  hashes: read("test/docs/released-changelog.json"),
}

const RELEASE = /^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$/
/** GitHub's heading anchor: lower case, only letters, digits, `_`, `-` and spaces, spaces as `-`. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")
const upgradeHeading = (from: string, to: string) => `${from} → ${to}`

/** The files' story, read once: sections, versions, the newest. */
function story(files: ReleaseFiles) {
  const [unreleased, ...releases] = release.changelogSections(files.changelog)
  const versions = releases.map((r) => r.version)
  return { unreleased, releases, versions, newest: versions[0] }
}

/** Each check: its name and what it finds wrong (nothing when the files agree). */
const CHECKS: Array<[string, (files: ReleaseFiles) => string[]]> = [
  [
    "CHANGELOG.md has [Unreleased] on top, then dated versions, newest first",
    (files) => {
      const { unreleased, releases, versions } = story(files)
      const problems: string[] = []
      if (unreleased.heading !== "## [Unreleased]") problems.push(`the first section is "${unreleased.heading}"`)
      if (releases.length < 2) problems.push("fewer than two releases")
      problems.push(...releases.filter((r) => !RELEASE.test(r.heading)).map((r) => `"${r.heading}" is not "## [x.y.z] - YYYY-MM-DD"`))
      const dated = releases.filter((r) => RELEASE.test(r.heading))
      const dates = dated.map((r) => r.heading.match(RELEASE)![4])
      const isDay = (date: string) => !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date)
      problems.push(...dates.filter((date) => !isDay(date)).map((date) => `${date} is no day`))
      if ([...dates].sort().reverse().join() !== dates.join()) problems.push(`dates not newest first: ${dates.join(", ")}`)
      const numbers = dated.map((r) => r.heading.match(RELEASE)!.slice(1, 4).map(Number))
      const order = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
      if (numbers.some((n, i) => i > 0 && order(numbers[i - 1], n) <= 0)) problems.push(`versions not newest first: ${versions.join(", ")}`)
      return problems
    },
  ],
  [
    "every released section is as it was released (its hash in test/docs/released-changelog.json)",
    (files) => {
      const { releases } = story(files)
      const held = (JSON.parse(files.hashes) as { sections: Record<string, string> }).sections
      const changed = releases
        .filter((r) => held[r.version] && held[r.version] !== release.sectionHash(r.text))
        .map((r) => `[${r.version}] changed since its release: changes after a release go under [Unreleased]`)
      const unheld = releases.filter((r) => !held[r.version]).map((r) => `[${r.version}] has no hash: cut releases with npm run release`)
      const gone = Object.keys(held)
        .filter((version) => !releases.some((r) => r.version === version))
        .map((version) => `[${version}] was released and is gone`)
      return [...changed, ...unheld, ...gone]
    },
  ],
  [
    "package.json and package-lock.json are at the CHANGELOG's newest version",
    (files) => {
      const { newest } = story(files)
      const lock = JSON.parse(files.lock) as { version: string; packages: Record<string, { version: string }> }
      const found = [JSON.parse(files.packageJson).version, lock.version, lock.packages[""].version]
      return found.every((version) => version === newest) ? [] : [`package.json, its lock's version and packages[""]: ${found.join(", ")}; the CHANGELOG's newest: ${newest}`]
    },
  ],
  [
    "every version after the first opens with how to upgrade from the one before, linking to docs/upgrading.md",
    (files) => {
      const { releases, versions } = story(files)
      return releases.slice(0, -1).flatMap((r, i) => {
        const [version, previous] = [versions[i], versions[i + 1]]
        const subsection = r.text.match(/^### (.*)\n([\s\S]*?)(?=^### |(?![\s\S]))/m)
        if (subsection?.[1] !== `Upgrading from ${previous}`) return [`${version}: its first subsection is not "### Upgrading from ${previous}"`]
        const link = `(docs/upgrading.md#${anchor(upgradeHeading(previous, version))})`
        return subsection[2].includes(link) ? [] : [`${version}: "Upgrading from ${previous}" does not link ${link}`]
      })
    },
  ],
  [
    "docs/upgrading.md has a section per upgrade, newest first, at most one for what is unreleased, and names the current version",
    (files) => {
      const { versions, newest } = story(files)
      const sections = [...files.upgrading.matchAll(/^## (.+ → .+)$/gm)].map((m) => m[1])
      const expected = versions.slice(0, -1).map((version, i) => upgradeHeading(versions[i + 1], version))
      const pending = upgradeHeading(newest, "Unreleased")
      const found = sections[0] === pending ? sections.slice(1) : sections
      const problems = found.join("\n") === expected.join("\n") ? [] : [`sections ${sections.join(" | ")}; expected [${pending} |] ${expected.join(" | ")}`]
      return files.upgrading.includes(`The current version is ${newest}.`) ? problems : [...problems, `does not say "The current version is ${newest}."`]
    },
  ],
  [
    "every link from CHANGELOG.md to docs/upgrading.md finds its heading",
    (files) => {
      const anchors = new Set([...files.upgrading.matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1])))
      const links = [...files.changelog.matchAll(/\]\(docs\/upgrading\.md#([^)]+)\)/g)].map((m) => m[1])
      return links.length === 0 ? ["no links"] : links.filter((target) => !anchors.has(target)).map((target) => `#${target} finds no heading`)
    },
  ],
]

describe("the repository's release files", () => {
  it.each(CHECKS)("%s", (_name, check) => {
    expect(check(REPOSITORY)).toEqual([])
  })

  it("files no change after the 0.2.0 release under 0.2.0 (0.2.0 refuses payouts.reconcileFrom)", () => {
    const { releases } = story(REPOSITORY)
    expect(releases.find((r) => r.version === "0.2.0")!.text).not.toContain("reconcileFrom")
    expect(REPOSITORY.upgrading.slice(REPOSITORY.upgrading.indexOf("## 0.1.0 → 0.2.0"))).not.toContain("reconcileFrom")
  })
})

describe("npm run release", () => {
  const { newest } = story(REPOSITORY)
  const [major, minor] = newest.split(".").map(Number)
  const next = `${major}.${minor + 1}.0`
  /** The repository's files with a change under [Unreleased] (right after a release it is empty). */
  const BEFORE = ((files: ReleaseFiles): ReleaseFiles => {
    if (story(files).unreleased.text.trim() !== "## [Unreleased]") return files
    const pending = upgradeHeading(newest, "Unreleased")
    return {
      ...files,
      changelog: files.changelog.replace(
        "## [Unreleased]\n",
        `## [Unreleased]\n\n### Upgrading from ${newest}\n\n[Upgrading: ${pending}](docs/upgrading.md#${anchor(pending)}): nothing to do.\n\n### Fixed\n- A fix.\n`
      ),
      upgrading: files.upgrading.replace(
        /^## .+ → /m,
        (first) =>
          `## ${pending}\n\nWhat else changed: the [CHANGELOG](../CHANGELOG.md),\nUnreleased (steps are added as changes land; a build of a commit after the last release needs them too).\n\nNothing to do.\n\n${first}`
      ),
    }
  })(REPOSITORY)
  const cut = () => release.cutRelease(BEFORE, next, "2099-01-31")

  it.each(CHECKS)("makes a release that passes: %s", (_name, check) => {
    expect(check(cut())).toEqual([])
  })

  it("dates what was unreleased as the new version, leaves an empty [Unreleased] on top, and keeps every released section", () => {
    const after = story(cut())
    expect(after.unreleased.text.trim()).toBe("## [Unreleased]")
    expect(after.releases[0].heading).toBe(`## [${next}] - 2099-01-31`)
    expect(after.releases[0].text.slice(after.releases[0].heading.length)).toBe(
      story(BEFORE)
        .unreleased.text.slice("## [Unreleased]".length)
        .replace(`${newest} → Unreleased`, `${newest} → ${next}`)
        .replace(anchor(`${newest} → Unreleased`), anchor(`${newest} → ${next}`))
    )
    expect(after.releases.slice(1).map((r) => r.text)).toEqual(story(BEFORE).releases.map((r) => r.text))
  })

  it("refuses a version that is not newer, and an empty [Unreleased]", () => {
    expect(() => release.cutRelease(BEFORE, newest, "2099-01-31")).toThrow(/not newer/)
    const released = cut()
    expect(() => release.cutRelease(released, `${major}.${minor + 2}.0`, "2099-02-01")).toThrow(/\[Unreleased\] is empty/)
  })
})
