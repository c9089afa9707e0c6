import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { AltaPayNetworkError } from "../../src/altapay/errors"
import { HttpTransport } from "../../src/altapay/http"

/**
 * A broken or hostile endpoint must not make the client hold an answer of any size in memory:
 * an answer over 10 MiB is refused, whether it declares its length or streams without one, and an
 * answer within it is read whole either way.
 */
describe("the size of an answer", () => {
  const LIMIT = 10 * 1024 * 1024
  let server: Server
  let base: string

  beforeAll(async () => {
    server = createServer((req, res) => {
      const size = Number(new URL(req.url ?? "/", "http://x").searchParams.get("bytes"))
      const declared = req.url?.startsWith("/declared")
      res.writeHead(200, { "content-type": "application/xml", ...(declared ? { "content-length": String(size) } : {}) })
      const chunk = Buffer.alloc(64 * 1024, "a")
      let sent = 0
      const pump = (): void => {
        while (sent < size) {
          const part = chunk.subarray(0, Math.min(chunk.length, size - sent))
          sent += part.length
          if (!res.write(part)) return void res.once("drain", pump)
        }
        res.end()
      }
      pump()
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  const get = (http: HttpTransport, path: string) => http.request({ method: "GET", url: new URL(`${base}${path}`), headers: {}, safeToRetry: false, operation: "GET /answer" })

  it.each(["declared", "streamed"])("reads an answer within the limit whole (%s length)", async (how) => {
    const http = new HttpTransport()
    try {
      const res = await get(http, `/${how}?bytes=${200 * 1024}`)
      expect(res.body).toHaveLength(200 * 1024)
    } finally {
      await http.close()
    }
  })

  it.each(["declared", "streamed"])("refuses an answer over 10 MiB (%s length)", async (how) => {
    const http = new HttpTransport()
    try {
      await expect(get(http, `/${how}?bytes=${LIMIT + 1}`)).rejects.toThrow(AltaPayNetworkError)
      await expect(get(http, `/${how}?bytes=${LIMIT + 1}`)).rejects.toThrow(/larger than 10485760 bytes/)
    } finally {
      await http.close()
    }
  })
})
