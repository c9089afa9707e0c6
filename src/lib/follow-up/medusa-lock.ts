/**
 * Runs a job holding a key in Medusa's locking module, taken as Medusa's own steps take it: retried
 * for up to `waitMs`, and a lock whose holder let it expire is taken over. Not had by then: `busy`,
 * and the job does not run. The follow-ups take a session's own key this way (a second server
 * skips what the first is doing) and a cart's id (the key Medusa's cart completion holds while it
 * authorizes the cart's payment); so do the recording of a confirmed payment and the refund routes
 * (an order's money changes one at a time).
 */
import { randomUUID } from "node:crypto"
import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

/** A run that dies lets go after this long. */
const LOCK_SECONDS = 5 * 60

export async function holdingLock<T>(locking: ILockingModule, key: string, waitMs: number, job: () => Promise<T>, busy: T): Promise<T> {
  const ownerId = `altapay:${randomUUID()}`
  const until = Date.now() + waitMs
  for (;;) {
    try {
      await locking.acquire(key, { ownerId, expire: LOCK_SECONDS })
      break
    } catch {
      if (Date.now() >= until) return busy
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
  }
  try {
    return await job()
  } finally {
    await locking.release(key, { ownerId }).catch(() => undefined)
  }
}

/** Longer than a capture, refund or charge takes with AltaPay at its slowest: the change before this one is still running. */
export const ORDER_MONEY_WAIT_MS = 60_000

/** The key under which an order's money changes run one at a time (src/api/order-money-lock.ts). */
export const orderMoneyKey = (orderId: string): string => `altapay:order-money:${orderId}`

/** Runs `job` as one change of order `orderId`'s money: after any other under way (Medusa's capture, refund, cancel). */
export function changingOrderMoney<T>(container: MedusaContainer, orderId: string, job: () => Promise<T>, busy: T): Promise<T> {
  return holdingLock(container.resolve<ILockingModule>(Modules.LOCKING), orderMoneyKey(orderId), ORDER_MONEY_WAIT_MS, job, busy)
}
