/**
 * Reading the repository's markdown pages as a reader sees them: prose without fenced code, the
 * fenced blocks, sections by heading, relative links, and which pages the package ships.
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import path from "node:path"
import { DOC_PAGES, REPO_ROOT } from "./doc-pages"

/** Every page a reader may open: README.md, docs/*.md, CHANGELOG.md and the kit's README. */
export const ALL_PAGES = [...DOC_PAGES, "CHANGELOG.md", "storefronts/nextjs-starter/README.md"]

export const readPage = (page: string): string => readFileSync(path.join(REPO_ROOT, page), "utf8")

/** The page's lines, each with whether it lies inside a fenced code block (fences included). */
export function linesOf(text: string): Array<{ line: string; number: number; fenced: boolean }> {
  let fenced = false
  return text.split("\n").map((line, i) => {
    const fence = /^\s*```/.test(line)
    const inside = fenced || fence
    if (fence) fenced = !fenced
    return { line, number: i + 1, fenced: inside }
  })
}

/** The page's text outside fenced code blocks. */
export const prose = (text: string): string =>
  linesOf(text)
    .filter((l) => !l.fenced)
    .map((l) => l.line)
    .join("\n")

/** The section under the first heading `heading` matches, to the next heading of the same or a higher level. */
export function section(text: string, heading: RegExp): string {
  const lines = linesOf(text)
  const start = lines.findIndex((l) => !l.fenced && /^#+ /.test(l.line) && heading.test(l.line))
  if (start < 0) return ""
  const level = /^#+/.exec(lines[start].line)![0].length
  const end = lines.findIndex((l, i) => i > start && !l.fenced && new RegExp(`^#{1,${level}} `).test(l.line))
  return lines
    .slice(start, end < 0 ? undefined : end)
    .map((l) => l.line)
    .join("\n")
}

/** Relative link targets of a page (`[text](target)` outside code, no scheme, no bare `#anchor`), without their anchor. */
export const relativeLinks = (text: string): string[] =>
  [
    ...prose(text)
      .replace(/`[^`\n]*`/g, "")
      .matchAll(/\]\(([^)\s]+)\)/g),
  ]
    .map((m) => m[1])
    .filter((target) => !/^([a-z]+:|#)/i.test(target))
    .map((target) => target.replace(/#.*$/, ""))

const pkg = JSON.parse(readPage("package.json")) as { files: string[]; bin: Record<string, string> }
/** npm ships these whatever `files` says. */
const ALWAYS = /^(package\.json|README(\.[^/]*)?|LICEN[CS]E(\.[^/]*)?)$/i

/** Whether the packed package contains this repository path (package.json `files`: paths, folders, `*` in one segment). */
export function shipped(file: string): boolean {
  if (ALWAYS.test(file)) return true
  return pkg.files.some((entry) => {
    if (entry.includes("*")) return new RegExp(`^${entry.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`).test(file)
    return file === entry || file.startsWith(`${entry}/`)
  })
}

/** A link target resolved from the page's folder to a repository path (a folder counts as its files). */
export function linkTarget(page: string, target: string): { path: string; exists: boolean; folder: boolean } {
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(target)))
  const full = path.join(REPO_ROOT, resolved)
  const exists = existsSync(full)
  return { path: resolved.replace(/\/$/, ""), exists, folder: exists && statSync(full).isDirectory() }
}

export const PACKAGE = pkg
