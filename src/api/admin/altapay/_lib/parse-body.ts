/** Request bodies are checked in the routes themselves (no shared middlewares file to edit). */
import { MedusaError } from "@medusajs/framework/utils"
import type { z } from "zod"

/** The parsed body, or a 400 naming every problem by path (`items.0.quantity: ...`). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {})
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
  throw new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid request: ${problems.join("; ")}.`)
}
