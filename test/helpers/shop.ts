/** A shop's callback endpoints for tests: records every post AltaPay (the sandbox) makes, answers as `answer` says. */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface ShopPost {
  path: string
  body: string
  signature?: string
}

export interface Shop {
  /** http://127.0.0.1:<port> */
  url: string
  posts: ShopPost[]
  close(): Promise<void>
}

/** `answer(path)`: a Location to answer 303 with, or undefined for a 200 "ok". */
export async function startShop(answer: (path: string) => string | undefined = () => undefined): Promise<Shop> {
  const posts: ShopPost[] = []
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (c: Buffer) => (body += c.toString("utf8")))
    req.on("end", () => {
      posts.push({ path: req.url ?? "", body, signature: req.headers["altapay-signature"] as string | undefined })
      const location = answer(req.url ?? "")
      if (location) res.writeHead(303, { location }).end()
      else res.writeHead(200).end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
