/**
 * Postgres settings for data that may be lost: durability off (no fsync, no synchronous commit,
 * no full-page writes), which makes Medusa's migrations and the test runner's template copies
 * several times faster. A machine crash can leave such a database unusable: the tests throw theirs
 * away after each run, and the demo starts over with `npm run demo -- --fresh`.
 */
export const DISPOSABLE_DATA_FLAGS: readonly string[] = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
