/**
 * One fast-check seed for the whole unit run, printed once so CI's log says how to replay it:
 * `FC_SEED=<seed> npm test` (or the jest command in the README) runs every property test with the
 * same cases again. jest runs this once per run, before the workers start, so they inherit it.
 * fast-check prints the seed and the shrink path of a failing property as well.
 */
export default function fastCheckSeed(): void {
  const given = process.env.FC_SEED
  if (given !== undefined && !/^-?\d+$/.test(given)) throw new Error(`FC_SEED must be an integer (a seed a previous run printed), got "${given}"`)
  const seed = given !== undefined ? Number(given) : (Math.random() * 2 ** 31) | 0
  process.env.FC_SEED = String(seed)
  process.stdout.write(`\nfast-check seed ${seed}${given !== undefined ? " (from FC_SEED)" : ""}; replay with FC_SEED=${seed}\n`)
}
