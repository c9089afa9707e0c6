/**
 * Which items a run looks at: up to `batchSize`, continuing where the previous run of the job
 * stopped and starting over after the last, so a long backlog is worked through in turn rather
 * than the oldest items being looked at again and again. The position is kept in the shared store
 * (every server continues it); items that leave the list meanwhile only shift the next batch.
 */
import type { SharedStore } from "../scale-out/shared-state"

const POSITION_TTL_SECONDS = 24 * 60 * 60

export async function nextBatch(store: SharedStore, name: string, batchSize: number, list: (skip: number, take: number) => Promise<string[]>): Promise<string[]> {
  const key = `altapay:follow-up:position:${name}`
  let skip = (await store.get<number>(key).catch(() => undefined)) ?? 0
  let items = await list(skip, batchSize)
  if (items.length === 0 && skip > 0) items = await list((skip = 0), batchSize)
  await store.set(key, items.length < batchSize ? 0 : skip + items.length, POSITION_TTL_SECONDS).catch(() => undefined)
  return items
}
