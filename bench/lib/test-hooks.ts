/**
 * Just enough of jest's globals (describe, beforeAll, beforeEach, afterEach, afterAll, jest) for
 * Medusa's medusaIntegrationTestRunner and the integration tests' store helpers to run outside
 * jest: hooks are collected when registered and run when the bench says so.
 */
type Hook = () => unknown

export class TestHooks {
  private readonly hooks: Record<"beforeAll" | "beforeEach" | "afterEach" | "afterAll", Hook[]> = { beforeAll: [], beforeEach: [], afterEach: [], afterAll: [] }
  private readonly saved = new Map<string, unknown>()

  /** Puts the globals in place; `register` then runs with them (e.g. calls the runner). */
  install(): void {
    const g = globalThis as Record<string, unknown>
    const globals: Record<string, unknown> = {
      describe: (_name: string, body: () => void) => body(),
      it: () => undefined,
      test: () => undefined,
      beforeAll: (fn: Hook) => this.hooks.beforeAll.push(fn),
      beforeEach: (fn: Hook) => this.hooks.beforeEach.push(fn),
      afterEach: (fn: Hook) => this.hooks.afterEach.push(fn),
      afterAll: (fn: Hook) => this.hooks.afterAll.push(fn),
      // tools/test-store/jest.setup.ts sets a timeout; there is none here.
      jest: { setTimeout: () => undefined },
    }
    for (const [name, value] of Object.entries(globals)) {
      this.saved.set(name, g[name])
      g[name] = value
    }
  }

  uninstall(): void {
    const g = globalThis as Record<string, unknown>
    for (const [name, value] of this.saved) g[name] = value
    this.saved.clear()
  }

  beforeAll = (): Promise<void> => this.run(this.hooks.beforeAll)
  beforeEach = (): Promise<void> => this.run(this.hooks.beforeEach)
  afterEach = (): Promise<void> => this.run(this.hooks.afterEach)
  /** Last registered first: the app stops before what it depends on. */
  afterAll = (): Promise<void> => this.run([...this.hooks.afterAll].reverse())

  private async run(hooks: Hook[]): Promise<void> {
    for (const hook of hooks) await hook()
  }
}
