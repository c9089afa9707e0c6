/**
 * When Medusa has handled every event emitted so far, without a fixed sleep.
 *
 * Medusa's webhook route emits payment.webhook_received with a 5 s delay (WEBHOOK_PROCESSING_DELAY_MS)
 * and answers at once; subscribers (the webhook's processPaymentWorkflow, the plugin's captures on
 * shipment) run after the route or workflow that emitted their event has answered. A test that
 * asserted what they did, or that they did nothing, slept a guessed time: the delay plus a margin
 * for a loaded machine, or until AltaPay had heard nothing for two seconds. This counts every event
 * the app's local event bus has scheduled and not yet dispatched, and every subscriber run under way,
 * so `eventsSettled()` waits exactly as long as Medusa took. Medusa's delays and subscribers are
 * unchanged: it only observes them, through @medusajs/event-bus-local's emitter and methods, which
 * are not public API (watchEvents says so if a Medusa version changes them).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

type Listener = ((...args: unknown[]) => unknown) & { subscriberId?: string }
interface Emitter {
  eventNames(): Array<string | symbol>
  listeners(event: string | symbol): Listener[]
  listenerCount(event: string | symbol): number
  on(event: string | symbol, listener: Listener): Emitter
  off(event: string | symbol, listener: Listener): Emitter
  emit(event: string | symbol, ...args: unknown[]): boolean
}
interface EventData {
  name: string
  metadata?: { eventGroupId?: string }
}

/** The parts of @medusajs/event-bus-local's service this wraps. */
interface LocalEventBus {
  eventEmitter_?: Emitter
  groupedEventsMap_?: Map<string, EventData[]>
  groupOrEmitEvent?(eventData: EventData): Promise<void>
  releaseGroupedEvents?(eventGroupId: string): Promise<void>
}

interface Watch {
  /** Events scheduled (at once or after a delay) to listeners that the emitter has not dispatched yet, by name. */
  undispatched: Map<string | symbol, number>
  /** Subscriber runs started and not ended. */
  running: number
  whenSettled: Array<() => void>
}

const watches = new WeakMap<object, Watch>()
const settled = (watch: Watch) => watch.running === 0 && [...watch.undispatched.values()].every((count) => count === 0)

/** Starts counting (once per app, before its first test: an event already scheduled would be missed). */
export function watchEvents(container: MedusaContainer): void {
  const bus = container.resolve<LocalEventBus>(Modules.EVENT_BUS)
  if (watches.has(bus)) return
  const emitter = bus.eventEmitter_
  const { groupOrEmitEvent, releaseGroupedEvents } = bus
  if (!emitter || !groupOrEmitEvent || !releaseGroupedEvents || !bus.groupedEventsMap_) {
    throw new Error(
      "watchEvents(): the test store's event bus is not Medusa's local one as 2.21 has it (eventEmitter_, groupOrEmitEvent, releaseGroupedEvents); eventsSettled() cannot count its events."
    )
  }
  const watch: Watch = { undispatched: new Map(), running: 0, whenSettled: [] }
  const check = () => {
    if (settled(watch)) for (const resolve of watch.whenSettled.splice(0)) resolve()
  }
  const ended = () => {
    watch.running--
    check()
  }
  const counted = (listener: Listener): Listener => {
    const run: Listener = function (this: unknown, ...args) {
      watch.running++
      let result: unknown
      try {
        result = listener.apply(this, args)
      } catch (error) {
        ended()
        throw error
      }
      Promise.resolve(result).then(ended, ended)
      return result
    }
    run.subscriberId = listener.subscriberId
    return run
  }
  // The bus dispatches only to names that had listeners when it scheduled them, as counted here.
  const schedule = (name: string) => {
    if (emitter.listenerCount(name) > 0) watch.undispatched.set(name, (watch.undispatched.get(name) ?? 0) + 1)
  }

  for (const name of emitter.eventNames()) {
    for (const listener of emitter.listeners(name)) {
      emitter.off(name, listener)
      emitter.on(name, counted(listener))
    }
  }
  const on = emitter.on.bind(emitter)
  emitter.on = (name, listener) => on(name, counted(listener))
  const emit = emitter.emit.bind(emitter)
  emitter.emit = (name, ...args) => {
    const dispatched = emit(name, ...args)
    const waiting = watch.undispatched.get(name) ?? 0
    if (waiting > 0) watch.undispatched.set(name, waiting - 1)
    check()
    return dispatched
  }
  bus.groupOrEmitEvent = (eventData) => {
    if (!eventData.metadata?.eventGroupId) schedule(eventData.name)
    return groupOrEmitEvent.call(bus, eventData)
  }
  bus.releaseGroupedEvents = (eventGroupId) => {
    for (const event of bus.groupedEventsMap_?.get(eventGroupId) ?? []) schedule(event.name)
    return releaseGroupedEvents.call(bus, eventGroupId)
  }
  watches.set(bus, watch)
}

/**
 * Resolves once every event the app emitted so far has been dispatched and its subscribers have
 * ended, AltaPay's callbacks included (at once when nothing waits). Post a callback first and wait
 * for its answer (the sandbox's simulatePayment and sendCallback do): a post under way is not counted.
 */
export function eventsSettled(container: MedusaContainer, timeoutMs = 60_000): Promise<void> {
  const watch = watches.get(container.resolve<object>(Modules.EVENT_BUS))
  if (!watch) return Promise.reject(new Error("eventsSettled(): watchEvents() has not run for this app (storeTestRunner runs it)."))
  if (settled(watch)) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `eventsSettled(): still ${watch.running} subscriber run(s) and ${[...watch.undispatched.values()].reduce((a, b) => a + b, 0)} event(s) to dispatch after ${timeoutMs} ms`
          )
        ),
      timeoutMs
    )
    watch.whenSettled.push(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}
