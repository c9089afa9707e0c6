/**
 * Specs that drive a program of the operating system (Debian's redis-server and chromium, which
 * the README's set-up command installs) ask here whether they can run. Locally a missing program
 * skips the spec with one line saying what to install; in CI (CI set, as .ci/run does) the spec
 * fails instead, because CI must never pass a test it did not run.
 */
import { spawnSync } from "node:child_process"
import fs from "node:fs"

export interface SystemProgram {
  /** A command on the PATH (run with --version) or an absolute path. */
  command: string
  /** The command that installs it, e.g. "sudo apt-get install -y redis-server". */
  install: string
}

export const REDIS_SERVER: SystemProgram = { command: "redis-server", install: "sudo apt-get install -y redis-server" }

/** "<command> is missing (install: ...)" for a program that is not there; undefined when it is. */
export function missingProgram(program: SystemProgram): string | undefined {
  const present = program.command.startsWith("/") ? fs.existsSync(program.command) : spawnSync(program.command, ["--version"]).status === 0
  return present ? undefined : `${program.command} is missing (install it: ${program.install})`
}

/**
 * Stands in for a spec that cannot run: locally one skipped test and one console line; in CI one
 * failing test with the reason. `optedOut`: the run asked for the skip (it never fails).
 */
export function unavailableSpec(title: string, reason: string, optedOut = false): void {
  describe(title, () => {
    if (process.env.CI && !optedOut) {
      it(`cannot run: ${reason}`, () => {
        throw new Error(`${title}: ${reason}. CI runs every test: install it first (.ci/run does).`)
      })
      return
    }
    console.warn(`[skipped] ${title}: ${reason}`)
    it.skip(`skipped: ${reason}`, () => undefined)
  })
}

/** describe(title, body) when every program is installed, else unavailableSpec. */
export function describeNeeding(programs: SystemProgram[], title: string, body: () => void): void {
  const missing = programs.map(missingProgram).filter((reason): reason is string => !!reason)
  if (missing.length) unavailableSpec(title, missing.join("; "))
  else describe(title, body)
}
