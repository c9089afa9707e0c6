#!/usr/bin/env node
// Cuts a release: `npm run release -- 0.3.0` (in a clean checkout of the main branch).
//
//   1. CHANGELOG.md: what is under `## [Unreleased]` becomes `## [0.3.0] - <today, UTC>`, and an
//      empty `## [Unreleased]` goes on top. Its `### Upgrading from <previous>` link and
//      docs/upgrading.md's `## <previous> → Unreleased` section take the version's name, and
//      upgrading.md names it as the current version.
//   2. package.json and package-lock.json take the version.
//   3. test/docs/released-changelog.json takes the new section's hash: a released section never
//      changes again (test/docs/releases.test.ts).
//   4. One commit, "Release 0.3.0". Tagging (`git tag -a v0.3.0`) and pushing are printed as the
//      next step: a tag is not carried by a branch merge.
//
// Refuses, changing nothing, when a tracked file has changes, the version is not newer than the last
// release, [Unreleased] is empty, or it does not open with the upgrade steps from the last release.
// `--date YYYY-MM-DD` dates the section another day; `--no-commit` leaves the changes unstaged.
"use strict"
const { execFileSync } = require("node:child_process")
const { createHash } = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")

const HASHES = "test/docs/released-changelog.json"
const VERSION = /^(\d+)\.(\d+)\.(\d+)$/
/** How docs/upgrading.md's `<previous> → Unreleased` section names what it leads to, until a release names it. */
const PENDING = "Unreleased (steps are added as changes land; a build of a commit after the last release needs them too)."

/** CHANGELOG.md's `## [...]` sections, in order: { heading, version, text } (text from its heading to the next). */
function changelogSections(changelog) {
  return changelog
    .split(/^(?=## \[)/m)
    .slice(1)
    .map((text) => ({ heading: text.slice(0, text.indexOf("\n")), version: /^## \[([^\]]+)\]/.exec(text)[1], text }))
}

/** The hash a released section is held to: its text, trailing blank lines trimmed, one newline. */
const sectionHash = (text) => createHash("sha256").update(`${text.trimEnd()}\n`).digest("hex")

/** GitHub's anchor of a heading (as test/docs/releases.test.ts reads them). */
const anchor = (heading) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")

const newer = (a, b) => {
  const [x, y] = [VERSION.exec(a).slice(1).map(Number), VERSION.exec(b).slice(1).map(Number)]
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
}

/**
 * The release's files from the current ones: { changelog, upgrading, packageJson, lock, hashes }
 * (texts), or throws an Error that says what to do first.
 */
function cutRelease(files, version, date) {
  if (!VERSION.test(version)) throw new Error(`"${version}" is not a version (x.y.z).`)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`"${date}" is not a date (YYYY-MM-DD).`)
  const sections = changelogSections(files.changelog)
  const [unreleased, previous] = [sections[0], sections[1]]
  if (unreleased?.heading !== "## [Unreleased]") throw new Error("CHANGELOG.md does not open with `## [Unreleased]`.")
  if (!previous || newer(version, previous.version) <= 0) throw new Error(`${version} is not newer than the last release, ${previous?.version}.`)
  const body = unreleased.text.slice(unreleased.heading.length).trim()
  if (!body) throw new Error("[Unreleased] is empty: there is nothing to release.")
  const from = `${previous.version} → Unreleased`
  if (!body.startsWith(`### Upgrading from ${previous.version}\n`) || !body.includes(`(docs/upgrading.md#${anchor(from)})`)) {
    throw new Error(
      `[Unreleased] must open with "### Upgrading from ${previous.version}", linking (docs/upgrading.md#${anchor(from)}): what a store must do, or "Nothing to do." (docs/development.md, "Cutting a release").`
    )
  }
  if (!files.upgrading.includes(`\n## ${from}\n`) || !files.upgrading.includes(PENDING)) {
    throw new Error(`docs/upgrading.md has no "## ${from}" section (what a store must do, or "Nothing to do.") saying "${PENDING}"`)
  }

  const to = `${previous.version} → ${version}`
  const released = `## [${version}] - ${date}\n\n${body
    .replace(`(docs/upgrading.md#${anchor(from)})`, `(docs/upgrading.md#${anchor(to)})`)
    .replace(`Upgrading: ${from}`, `Upgrading: ${to}`)}\n\n`
  const changelog = files.changelog.replace(unreleased.text, `## [Unreleased]\n\n${released}`)
  const upgrading = files.upgrading
    .replace(`\n## ${from}\n`, `\n## ${to}\n`)
    .replace(PENDING, `${version}.`)
    .replace(/The current version is [^\s]+\./, `The current version is ${version}.`)
  const packageJson = JSON.parse(files.packageJson)
  packageJson.version = version
  const lock = JSON.parse(files.lock)
  lock.version = version
  lock.packages[""].version = version
  const hashes = JSON.parse(files.hashes)
  hashes.sections = { [version]: sectionHash(released), ...hashes.sections }
  const json = (value) => `${JSON.stringify(value, null, 2)}\n`
  return { changelog, upgrading, packageJson: json(packageJson), lock: json(lock), hashes: json(hashes) }
}

const FILES = { changelog: "CHANGELOG.md", upgrading: "docs/upgrading.md", packageJson: "package.json", lock: "package-lock.json", hashes: HASHES }

function main(argv) {
  const root = process.cwd()
  const version = argv.find((arg) => !arg.startsWith("--"))
  const dateFlag = argv.indexOf("--date")
  const date = dateFlag >= 0 ? argv[dateFlag + 1] : new Date().toISOString().slice(0, 10)
  const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" })
  if (!version) throw new Error("Usage: npm run release -- <x.y.z> [--date YYYY-MM-DD] [--no-commit]")
  if (git("status", "--porcelain", "--untracked-files=no").trim()) throw new Error("The working tree has changes: commit or stash them first.")
  const current = Object.fromEntries(Object.entries(FILES).map(([key, file]) => [key, fs.readFileSync(path.join(root, file), "utf8")]))
  const next = cutRelease(current, version, date)
  for (const [key, file] of Object.entries(FILES)) fs.writeFileSync(path.join(root, file), next[key])
  if (argv.includes("--no-commit")) return console.log(`Release ${version} prepared (not committed).`)
  git("add", ...Object.values(FILES))
  git(
    "commit",
    "-q",
    "-m",
    `Release ${version}`,
    "-m",
    `CHANGELOG.md dates ${version} (${date}); package.json, package-lock.json and docs/upgrading.md name it; ${HASHES} holds its section.`
  )
  console.log(
    [
      `Release ${version} committed (${git("rev-parse", "--short", "HEAD").trim()}). Next:`,
      `  npm test                                   # on this commit`,
      `  git tag -a v${version} -m "Release ${version}"`,
      `  git push origin HEAD v${version}            # the tag is not carried by a merge`,
      `  npm pack                                   # medusa-payment-altapay-${version}.tgz`,
    ].join("\n")
  )
}

module.exports = { changelogSections, sectionHash, cutRelease }

if (require.main === module) {
  try {
    main(process.argv.slice(2))
  } catch (error) {
    console.error(`release: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
}
