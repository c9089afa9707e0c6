/**
 * Medusa's workflow engine can stop a cart completion part-way with no error. When a checkpoint of
 * the run cannot be saved and the engine's read of the run then finds nothing (its in-memory
 * storage answers a failed or late database read as "no such run"), it takes the run as finished
 * by another execution and stops it. Seen on Medusa 2.12.6 in CI, under load, about one checkout in
 * three; the storage code is the same on 2.21. The order exists and is linked to the cart, but the
 * steps after the one that stopped never run: the payment is not authorized (the order has no
 * payment), the cart's lock stays taken until its two-minute expiry (every completion meanwhile
 * waits 30 s and fails), and the run's grouped events (order.placed) are never sent.
 *
 * What the plugin finishes, for the run it started: it lets go of the lock (as the run's own
 * release step would: Medusa takes it without an owner), the payment is recorded on the order
 * under the lock (the caller's decision again, which also books captured amounts as the order's
 * transactions, as Medusa's add-order-transaction step would), and then the run's events are released.
 */
import type { IEventBusModuleService, ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

/** Medusa's cart completion holds the cart's lock this long: later, the lock may be someone else's. */
const COMPLETION_LOCK_SECONDS = 120

/** The run, as Medusa's exported workflow answers it. */
export interface CompletionRun {
  transaction: { getState(): string }
  startedAt: number
  eventGroupId: string
}

/** Lets go of the stopped run's cart lock, unless it may have expired and been taken by another. */
export async function releaseStoppedRunLock(scope: MedusaContainer, cartId: string, run: CompletionRun): Promise<boolean> {
  if (Date.now() - run.startedAt >= (COMPLETION_LOCK_SECONDS - 10) * 1000) return false
  await scope.resolve<ILockingModule>(Modules.LOCKING).release(cartId)
  return true
}

/** The run's grouped events (order.placed), which the engine held back when it stopped the run. */
export async function releaseStoppedRunEvents(scope: MedusaContainer, run: CompletionRun): Promise<void> {
  await scope.resolve<IEventBusModuleService>(Modules.EVENT_BUS).releaseGroupedEvents(run.eventGroupId)
}
