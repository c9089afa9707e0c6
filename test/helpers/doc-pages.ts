/** The pages the docs tests hold to the code: README.md and every docs/*.md, as repository paths. */
import { readdirSync } from "node:fs"
import path from "node:path"

export const REPO_ROOT = path.resolve(__dirname, "../..")

export const DOC_PAGES: string[] = [
  "README.md",
  ...readdirSync(path.join(REPO_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
]
