/**
 * The kit's altapay.patch names its files `apps/storefront/src/…` (dtc-starter's monorepo). Issue
 * 33: in a repository whose root is the storefront (nextjs-starter-medusa, or a dtc-starter
 * storefront split out) plain `git apply` fails and `-p3` is needed; `-p3` inside the monorepo's
 * apps/storefront "applies" nothing, with exit code 0. storefronts/nextjs-starter/README.md
 * ("Install") gives the command per layout; this applies the patch with those commands.
 *
 * What it proves: the patch's paths and hunks apply with the README's command in each layout, to
 * trees made of the patch's own pre-images (each file the patch edits holds exactly the lines its
 * hunks expect; the files it adds are absent), and the wrong command fails or does nothing. It
 * does not prove that the patch applies to the real starter's current files: that is
 * storefronts/nextjs-starter/walk's job (prepare-starter.sh, run by hand).
 */
import { execFileSync, type ExecFileSyncOptions } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

const KIT = path.resolve(__dirname, "../../storefronts/nextjs-starter")
const PATCH = path.join(KIT, "altapay.patch")
const README = fs.readFileSync(path.join(KIT, "README.md"), "utf8")
const PREFIX = "apps/storefront/"

interface Edited {
  /** Path in the patch, e.g. apps/storefront/src/lib/constants.tsx. */
  path: string
  /** The file as the patch's hunks expect it: their context and removed lines, in order. */
  preImage: string
}

/** The files the patch edits (not those it adds), each with the pre-image its hunks describe. */
function editedFiles(patch: string): Edited[] {
  return patch
    .split(/^(?=diff --git )/m)
    .filter((chunk) => /^--- a\//m.test(chunk))
    .map((chunk) => {
      const file = /^--- a\/(.+)$/m.exec(chunk)![1]
      const lines: string[] = []
      let inHunk = false
      for (const line of chunk.split("\n")) {
        if (line.startsWith("@@")) inHunk = true
        else if (inHunk && (line.startsWith(" ") || line.startsWith("-"))) lines.push(line.slice(1))
      }
      if (/^\\ No newline at end of file/m.test(chunk)) throw new Error(`${file}: a pre-image without a final newline is not handled here`)
      return { path: file, preImage: `${lines.join("\n")}\n` }
    })
}

/** A file the patch adds, and the kit file it must equal. */
const ADDED = "src/lib/data/altapay.ts"

const edited = editedFiles(fs.readFileSync(PATCH, "utf8"))
let tmp: string

/** git in `cwd`, never looking above the test's folder for a repository. */
function git(cwd: string, args: string[]): { ok: boolean; output: string } {
  const options: ExecFileSyncOptions = { cwd, env: { ...process.env, GIT_CEILING_DIRECTORIES: tmp }, stdio: "pipe" }
  try {
    return { ok: true, output: String(execFileSync("git", args, options)) }
  } catch (error) {
    const failure = error as { stderr?: Buffer; stdout?: Buffer }
    return { ok: false, output: `${String(failure.stdout ?? "")}${String(failure.stderr ?? "")}` }
  }
}

/** A folder with the edited files' pre-images under `base` (e.g. "apps/storefront/" or ""), a git repository (committed) when `repository`. */
function tree(name: string, base: string, repository: boolean): string {
  const root = path.join(tmp, name)
  fs.mkdirSync(root, { recursive: true })
  if (repository) git(root, ["init", "-q"])
  for (const file of edited) {
    const target = path.join(root, base, file.path.slice(PREFIX.length))
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.writeFileSync(target, file.preImage)
  }
  if (repository) {
    git(root, ["add", "-A"])
    git(root, ["-c", "user.name=kit test", "-c", "user.email=kit@example.invalid", "commit", "-q", "-m", "the starter's files as the patch sees them"])
  }
  return root
}

/** The README's command for a layout, from its Install table (e.g. `git apply -p3 altapay.patch`). */
function readmeCommand(layout: RegExp): string[] {
  const row = README.split("\n").find((line) => line.startsWith("|") && layout.test(line))
  const command = row && /`(git apply[^`]*)`/.exec(row)?.[1]
  if (!command) throw new Error(`README.md's Install table has no git apply command for ${layout}`)
  return command
    .split(/\s+/)
    .slice(1)
    .map((word) => (word.endsWith("altapay.patch") ? PATCH : word))
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "altapay-kit-patch-")))
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe("the kit's patch in each storefront layout", () => {
  it("edits starter files under apps/storefront/ only, so the pre-image trees stand for the starter", () => {
    expect(edited.length).toBeGreaterThan(0)
    expect(edited.every((file) => file.path.startsWith(PREFIX))).toBe(true)
  })

  it("dtc-starter (monorepo): the README's command applies from the repository root and from apps/storefront", () => {
    const command = readmeCommand(/dtc-starter/i)
    expect(command).not.toContain("-p3")
    for (const [name, cwd] of [
      ["monorepo-root", ""],
      ["monorepo-subfolder", "apps/storefront"],
    ] as const) {
      const root = tree(name, PREFIX, true)
      const run = git(path.join(root, cwd), command)
      expect(run).toMatchObject({ ok: true })
      expect(fs.readFileSync(path.join(root, PREFIX, ADDED), "utf8")).toBe(fs.readFileSync(path.join(KIT, ADDED), "utf8"))
      expect(git(root, ["status", "--porcelain"]).output).toMatch(/ M apps\/storefront\/src\/lib\/constants\.tsx/)
    }
  })

  it("-p3 inside the monorepo's apps/storefront applies nothing, with exit code 0 (why the README keeps it to the other layouts)", () => {
    const root = tree("monorepo-p3", PREFIX, true)
    const run = git(path.join(root, PREFIX), ["apply", "-v", "-p3", PATCH])
    expect(run.ok).toBe(true)
    expect(fs.existsSync(path.join(root, PREFIX, ADDED))).toBe(false)
    expect(git(root, ["status", "--porcelain", "--untracked-files=no"]).output).toBe("")
  })

  it("storefront at the repository root (nextjs-starter-medusa, a split-out storefront): plain git apply fails, the README's -p3 applies", () => {
    const root = tree("storefront-root", "", true)
    const plain = git(root, ["apply", PATCH])
    expect(plain.ok).toBe(false)
    expect(plain.output).toMatch(/apps\/storefront\/src\/.*: No such file or directory/)
    expect(fs.existsSync(path.join(root, "apps"))).toBe(false)
    const command = readmeCommand(/nextjs-starter-medusa/)
    expect(command).toContain("-p3")
    expect(git(root, command)).toMatchObject({ ok: true })
    expect(fs.readFileSync(path.join(root, ADDED), "utf8")).toBe(fs.readFileSync(path.join(KIT, ADDED), "utf8"))
    expect(git(root, ["status", "--porcelain"]).output).toMatch(/ M src\/lib\/constants\.tsx/)
  })

  it("a storefront folder outside any git repository: the README's -p3 applies", () => {
    const root = tree("no-repository", "", false)
    expect(git(root, readmeCommand(/not a git/i))).toMatchObject({ ok: true })
    expect(fs.readFileSync(path.join(root, ADDED), "utf8")).toBe(fs.readFileSync(path.join(KIT, ADDED), "utf8"))
  })
})
