/**
 * The demo's console output: "[demo] building the plugin… 5.2 s" for slow steps, and one line
 * per checkout step with its duration.
 */
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export function say(line = ""): void {
  process.stdout.write(`${line}\n`)
}

/** A slow step: the label shows while it runs (same line on a terminal), then its duration. */
export async function slowStep<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = Date.now()
  const tty = process.stdout.isTTY
  process.stdout.write(tty ? `[demo] ${label}… ` : `[demo] ${label}…\n`)
  try {
    const result = await run()
    process.stdout.write(tty ? `${seconds(Date.now() - started)}\n` : `[demo] ${label}: ${seconds(Date.now() - started)}\n`)
    return result
  } catch (error) {
    process.stdout.write(tty ? "failed\n" : `[demo] ${label}: failed\n`)
    throw error
  }
}

/** A checkout step: runs it, then prints "  ✓ <what it returned>   0.12 s". */
export async function flowStep<T>(run: () => Promise<T>, describe: (result: T) => string): Promise<T> {
  const started = Date.now()
  const result = await run()
  const text = describe(result)
  const time = seconds(Date.now() - started)
  say(`  ✓ ${text.padEnd(72)} ${time.padStart(7)}`)
  return result
}
