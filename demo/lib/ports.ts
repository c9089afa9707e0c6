/**
 * Checks the demo's ports before anything starts, so a taken port fails in one second with what
 * to do instead of a stack trace from whichever server lost the race.
 */
import net from "node:net"
import type { DemoSettings } from "./settings"

/** True when nothing listens on the port (on any interface we would bind). */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once("error", () => resolve(false))
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

const ROLES = [
  { key: "medusa", env: "DEMO_MEDUSA_PORT", what: "another Medusa?", alternative: 9100 },
  { key: "postgres", env: "DEMO_POSTGRES_PORT", what: "another Postgres, or a demo still running?", alternative: 5434 },
  { key: "sandbox", env: "DEMO_SANDBOX_PORT", what: "an AltaPay sandbox already running?", alternative: 8788 },
] as const

/** One line per taken port, e.g. "Port 9000 is in use (another Medusa?). Stop it or set DEMO_MEDUSA_PORT=9100." */
export async function takenPorts(ports: DemoSettings["ports"]): Promise<string[]> {
  const problems: string[] = []
  for (const role of ROLES) {
    const port = ports[role.key]
    if (!(await isFree(port))) {
      problems.push(`Port ${port} is in use (${role.what}). Stop it or set ${role.env}=${role.alternative}.`)
    }
  }
  const values = Object.values(ports)
  if (new Set(values).size !== values.length) problems.push(`The demo's ports must differ (Medusa ${ports.medusa}, Postgres ${ports.postgres}, sandbox ${ports.sandbox}).`)
  return problems
}
