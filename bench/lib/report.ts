/** The results table (console and bench/results.md) and the machine it was measured on. */
import os from "node:os"

export interface Row {
  figure: string
  measured: string
  target: string
  status: "pass" | "miss" | "info"
  note?: string
}

export interface Section {
  title: string
  rows: Row[]
}

export function machine(): string[] {
  const cpus = os.cpus()
  return [
    `OS: ${os.type()} ${os.release()} (${os.platform()}/${os.arch()})`,
    `CPU: ${cpus[0]?.model ?? "unknown"}, ${cpus.length} cores`,
    `Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `Node: ${process.version}`,
    `Date: ${new Date().toISOString()}`,
    `Load average at start (1/5/15 min): ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" / ")} (the machine is shared; figures are ratios within one run)`,
  ]
}

const pad = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - text.length))

export function consoleTable(sections: Section[]): string {
  const rows = sections.flatMap((s) => s.rows)
  const w = [Math.max(6, ...rows.map((r) => r.figure.length)), Math.max(8, ...rows.map((r) => r.measured.length)), Math.max(6, ...rows.map((r) => r.target.length))]
  const line = (a: string, b: string, c: string, d: string): string => `${pad(a, w[0])} | ${pad(b, w[1])} | ${pad(c, w[2])} | ${d}`
  const out = [line("figure", "measured", "target", "result"), "-".repeat(w[0] + w[1] + w[2] + 16)]
  for (const section of sections) {
    out.push(`== ${section.title}`)
    for (const r of section.rows) out.push(line(r.figure, r.measured, r.target, r.status))
  }
  return out.join("\n")
}

const cell = (text: string): string => text.replace(/\|/g, "\\|")

export function markdownTable(sections: Section[]): string {
  const out: string[] = []
  for (const section of sections) {
    out.push(`### ${section.title}`, "", "| figure | measured | target | result |", "|---|---|---|---|")
    for (const r of section.rows) out.push(`| ${cell(r.figure)} | ${cell(r.measured)} | ${cell(r.target)} | ${r.status === "miss" ? "**miss**" : r.status} |`)
    out.push("")
  }
  return out.join("\n")
}

/**
 * `markdown` with the section `### title` (up to the next `##`/`###` heading) replaced by `section`
 * (which starts with that heading), or `section` inserted before `## Notes` when absent.
 */
export function replaceSection(markdown: string, title: string, section: string): string {
  const heading = `### ${title}`
  const start = markdown.indexOf(`${heading}\n`)
  if (start < 0) {
    const notes = markdown.indexOf("\n## Notes")
    return notes < 0 ? `${markdown.trimEnd()}\n\n${section}` : `${markdown.slice(0, notes + 1)}${section}\n${markdown.slice(notes + 1)}`
  }
  const rest = markdown.slice(start + heading.length)
  const next = rest.search(/\n##+ /)
  const end = next < 0 ? markdown.length : start + heading.length + next + 1
  return `${markdown.slice(0, start)}${section}\n${markdown.slice(end)}`
}
