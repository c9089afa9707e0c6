/** Why some figures are what they are; written into bench/results.md under the table. */
export const NOTES = `## Notes

### How the figures are taken

- The sandbox (\`src/sandbox\`) runs in a child process, so its CPU, its garbage and its store are not in
  the measured process. Round trips are counted from its ledger.
- "bare" sends exactly the bytes the provider sent (recorded at undici's \`Pool.request\`, with the ids
  swapped for others of the same length), through an undici \`Pool\` with the client's settings
  (64 connections, keep-alive), with the provider's own MERCHANT token or Basic header. It reads the
  answer as text and does nothing with it.
- Refunds are 1 DKK on payments captured for 449 DKK, taken in turn by every variant, so all variants
  see the same refund histories (each Transaction in an answer lists all its reconciliation identifiers).
  The provider is handed the data its previous refund of that payment returned, as Medusa stores and
  passes it.
- "CPU µs per operation" is \`process.cpuUsage()\` of this process and of the sandbox process over the
  throughput rounds, divided by the operations. It explains the throughput ratios: with 2 cores shared
  by the client, the sandbox and other work, throughput follows total CPU per operation.

### AltaPay 30 and 80 ms away (first table)

- The sandbox process holds every request it answers for 30 (then 80) ms before handling it (its
  \`latency\` fault, never used up), for the provider and for the bare request alike. The bare request
  sends the provider's own bytes (recorded at undici's \`Pool.request\`, ids swapped) to the same
  endpoints: \`POST /session\` for initiate, \`payments?shop_orderid=\` for authorize,
  \`captureReservation\` for capture, and for refund the same two requests the provider makes (the
  \`payments\` look-up, then \`refundCapturedReservation\`).
- A third variant, "bare + XML parse", sends the same bytes and parses every answer with
  fast-xml-parser and the client's own settings, and nothing else: the least any client that reads
  AltaPay's answer has to do. Its ratio to bare is printed in each row as the floor under the
  provider's ratio, and each operation has a row of the provider against that floor ("provider /
  (bare + XML parse)"). Issue 39 holds capture and refund, through the money door (its lock, the
  attempt it records in the cache before sending, the sealed data), to at most 1.1 of the floor at
  64 in flight, p50 and p99; the other operations' rows report the ratio without a target. The
  provider reads well-formed answers with its own reader (\`src/altapay/xml-reader.ts\`, about a
  fifth of fast-xml-parser's time), so its ratio to the floor can be below 1.
- Each figure is 6 rounds x 25 calls per variant one at a time (150 samples each), or 4 rounds x 192
  calls kept 64 in flight (768 samples each, after 1,024 calls per variant that are not counted:
  the process settles over about that many); the variants alternate round by round, and p50 and
  p99 are taken over all the samples of a variant. A p99 over 150 samples is the second-slowest call,
  so one descheduling of this process by other work on the machine can swing it either way: read the
  one-in-flight p99 rows with that in mind.
- One in flight, the provider adds its own CPU per call (the client's checks and parse, the provider's
  mapping and sealed payment data; about 0.3-2 ms here, see the CPU rows) to a call of 30-160 ms.
- 64 in flight, the client process is the bottleneck: Node runs the provider's JavaScript on one
  thread, and 64 calls that each need about 1 ms (capture) or 2-3 ms (refund: two answers, see the
  "provider refundPayment" CPU row) of that thread need more of it than the round trip takes; calls
  wait in the event loop's queue for their turn, and the queue, not AltaPay, sets their latency. The
  bare request needs about 0.15 ms per request and never queues; the sandbox answers on the other
  core. The floor column shows how much of the gap is parsing alone: where "bare + XML parse" is
  itself above 1.05 (capture's answer holds a whole transaction), no client that reads the answer
  with this parser meets the target on this machine, and what is left above the floor is the
  client's checks (zod, exact amounts) and the provider's sealed payment data, lock and mapping.
  The CPU-per-call rows count the main thread's own time (on Linux): V8's compiler and collector
  threads run beside it and set no queue.

### A whole checkout in a Medusa store (second table)

- Medusa 2.21 boots from the tests' store app (\`tools/test-store/store-app\`) with
  Medusa's own \`medusaIntegrationTestRunner\`, run outside jest by a small shim for its hooks
  (\`bench/lib/test-hooks.ts\`), on embedded Postgres (\`tools/test-store/postgres.ts\`), seeded by
  \`seedStore\` (Denmark, DKK, 25 % VAT, two products, a shipping option). In-memory cache, event bus,
  workflow engine and locking, as the tests have them. The provider talks to the bench's sandbox
  process, so AltaPay's own work is not in Medusa's process.
- One checkout: \`POST /store/carts\` with items and addresses, \`POST .../shipping-methods\` (step
  "cart"); the payment session (AltaPay: the plugin's \`POST /store/carts/:id/altapay-session\` through
  the storefront helper, as a storefront does; manual: Medusa's \`POST /store/payment-collections\` and
  \`.../payment-sessions\` with \`pp_system_default\`); \`POST /store/carts/:id/complete\`; the admin's
  \`POST /admin/payments/:id/capture\` and \`POST /admin/payments/:id/refund\` (10 DKK). Only these
  Medusa routes are timed. The shopper paying on AltaPay's page (payment methods, the payment, the
  card form) happens between session and complete and is shown on its own row, untimed.
- Each round makes one checkout per variant, in turn (15 rounds after 2 warm-up rounds); the ratio is
  the median over rounds of the AltaPay checkout's time over the manual one's in the same round.
- Where the rest goes, per step (medians in the table): the number of SQL statements Medusa ran (knex's
  \`query\` event on the app's connection) is the same for both providers give or take a few, so the
  cart is not loaded more often with AltaPay; the difference is the requests to AltaPay (session: the
  session and the CUSTOMER token; complete: the authorize look-up; capture: one; refund: the look-up
  and the refund) and the provider's CPU around each, and the per-payment lock the provider takes for
  capture and refund (in-memory here; with Redis locking, one Redis round trip more each). At 30 ms
  every request to AltaPay adds its 30 ms to the step, which the 30 ms row shows.

### Optimisations kept, before and after

| change | before | after | where measured |
|---|---|---|---|
| gateway XML parsed without path strings (\`jPath: false\` in \`src/altapay/xml.ts\`): fast-xml-parser built the dotted path of every element, text and attribute for its callbacks; the client needs a path only for the three repeated elements | see the "before/after" row in "CPU per refund" (path strings on) | the same row (path strings off) | one run, interleaved rounds, CPU time of the same refund answer |
| the seal's canonical JSON (\`canonicalJson\` in \`src/lib/payment-data/data.ts\`) built by hand instead of entries, filter, sort and map; the same text (a golden test pins a seal made before) | the "before/after: canonical JSON" row in "CPU" (before) | the same row (now) | one run, interleaved rounds, CPU time of one encoding |
| a seal check encodes the data once for all accepted keys (two while \`paymentDataSecret\` is being introduced), not once per key | two encodings per check with two keys | one | the "canonical JSON" row gives the cost of one encoding |
| the journal's copy of a payment (\`src/lib/payment-data/journal.ts\`) is checked only when its revision is newer than Medusa's copy, the only case it is used | three seal checks or seals per capture and refund | two when Medusa's copy is the newest (as Medusa passes it) | the "checking the seal" row in "CPU" is what one check costs |
| AltaPay's history folded into payment data with sets (\`withTransaction\`), not a scan of the refunds per identifier | quadratic in a payment's refunds | linear | not timed separately (below noise for a few refunds) |
| (before this issue) \`XMLValidator.validate\` only on bodies that do not end with \`</APIResponse>\`; character-reference decoding only when a body has a reference | validate ≈ a third of a parse (the "XMLValidator.validate alone" figure) | not run on a well-formed answer | "parse payments answer" row |

Looked at and not kept: fast-xml-parser with \`processEntities: false\` for bodies without \`&\` (no
measurable difference once paths were off); validating refund and capture order lines once instead of
twice (\`commonFields\` then \`toGatewayOrderLineFields\`): 2-3 % of a refund's CPU for three lines, inside
this machine's noise. Every answer is still checked with zod (\`rootSchema\`, \`transactionSchema\`,
the Checkout API's schemas) and read into typed records with exact amounts.

### Memory of a long whole-store run

The run makes AltaPay checkouts (0 ms) two at a time after the ratio rounds, for
\`BENCH_STORE_MEMORY_SECONDS\` (600 by default) or \`BENCH_STORE_MEMORY_CHECKOUTS\` (10,000), and takes
the heap after a full GC every 50 checkouts. 10,000 whole-store checkouts take hours on this 2-core
machine (about one checkout per second with Medusa, Postgres and the sandbox sharing it), so the
10,000 figure is extrapolated from the slope of the heap over the run and says so in the table. The
heap holds Medusa, its in-memory modules (the test store keeps its cache, event bus and workflow
engine in memory; a production store uses Redis for them), the provider and the bench. The plugin's
own caches are bounded: \`IdempotencyCache\` (10,000 entries), one MERCHANT token, one client per API
user and settings.

### Session creation: 1 round trip (storefront flow), 4 (redirect flow)

With a warm MERCHANT token the storefront flow creates the session and nothing else. The redirect flow
(the default, for storefronts that only know Medusa's standard calls) also creates the AltaPay payment
the customer is sent to: \`GET session/{id}/payment-methods\` to pick the terminal's method, a CUSTOMER
token for that session (AltaPay requires one for \`POST /payment\`), and \`POST /payment\`
(\`src/providers/altapay/redirect-payment.ts\`). The storefront flow issues that CUSTOMER token from the
store route instead, and the browser creates the payment.

### Refund: 2 round trips, not 1

\`RefundFlow.run()\` in \`src/providers/altapay/refund-flow.ts\` looks the transaction up (\`payments\`) before it sends
\`refundCapturedReservation\`. The look-up is what makes two things safe:

1. A retried refund is not sent twice. AltaPay's gateway has no idempotency key; the provider's
   reconciliation_identifier is derived from Medusa's refund id, and the look-up finds it if the same
   refund already went through (Medusa retried after a crash or timeout), or adopts an earlier attempt
   whose answer was lost (the money door, \`src/lib/money-door/door.ts\`).
2. The over-refund check uses AltaPay's live captured and refunded amounts, not the figures stored in
   Medusa's payment data, which are stale when a refund or capture was made elsewhere (AltaPay's
   merchant portal, another server) or when an earlier refund is still Open.

A lost answer costs one more look-up (3 in all), which finds the refund by its reconciliation_identifier.

To drop the look-up, the provider would need (a) a record of the reconciliation identifiers it has sent,
shared by every server and surviving restarts (Medusa's cache module, as the token store already is),
so that only a refund id seen before, or a transaction with an uncertain attempt, is looked up first;
and (b) to leave the refundable-amount check to AltaPay, which refuses an over-refund itself unless
\`allow_over_refund\` is set: the merchant then gets AltaPay's refusal instead of the plugin's message
naming the amounts, and a refund made outside Medusa is no longer caught before sending. Against the real
AltaPay the look-up costs one more network round trip (tens of milliseconds), which is small next to what
it prevents (a double refund).

### Overhead over a bare request: where the time goes

The bare request does no work on either side of the socket; the client validates what it sends and
reads what comes back. Against a local sandbox that answers in well under a millisecond, that work is
of the same size as the whole round trip, so the ratios are large; against AltaPay over the internet
(tens of milliseconds per call) the same CPU is a few percent.

- **Refund (and any gateway call): the XML answer.** A CPU profile of 1,500 provider refunds at 64 in
  flight (\`node --cpu-prof\`) put 57% of the client's CPU in \`parseGatewayResponse\`
  (\`src/altapay/xml.ts\`), for the two answers per refund (the look-up and the refund's reply, each with
  the whole Transaction and all its reconciliation identifiers): fast-xml-parser's \`parse\` 37 points,
  a separate \`XMLValidator.validate\` pass plus the zod shape check about 12, mapping to typed
  objects 7; garbage collection another 11%. The client process is CPU-bound, hence the throughput
  ratio. The provider's own work (zod on the payment data, lines, merging the transaction) is under 15%.
  The answers also grow during the run: every refund adds a ReconciliationIdentifier to its
  transaction, and the bench refunds the same few payments hundreds of times, so late answers carry
  hundreds of identifiers (a real payment has a handful), which inflates the parse share here.
  Done since that profile: the validator now runs only on a body that does not end with
  \`</APIResponse>\` (to describe what is wrong with it), and character-reference decoding
  (\`htmlEntities\`) only for bodies that contain a reference, and the parser no longer builds path strings
  (\`jPath: false\`, see "Optimisations kept"). What remains is one fast-xml-parser parse
  per answer, the floor with this parser, and the refund's look-up (previous section), which doubles
  the XML read per refund on purpose.
- **Session creation:** the client's CPU per session is about twice the bare request's (see the CPU
  row): \`sessionBody\` checks the order lines and formats amounts, the answer is checked with zod
  (\`sessionSchema\`), and the provider adds the context lines' zod check (\`session-lines.ts\`), the
  compensation line and \`freshPaymentData\`. No single hot spot: the profile spreads it across these in
  shares of 2-7%. The provider's extra over the client row is its mapping; the client's extra over bare
  is validating and parsing.

### CPU and memory

- The parse figure compares \`parseGatewayResponse\` with fast-xml-parser configured with the client's
  exported \`parserOptions\` (a body without character references) (attributes, no value parsing, repeated
  elements as arrays). The difference is the zod check and the mapping to typed records with exact
  amounts and dates. The \`XMLValidator.validate\` time is shown for reference: the client no longer
  runs it on well-formed answers.
- CPU figures are CPU time (\`process.cpuUsage()\`), not wall time: on a shared machine a tight loop's
  wall time includes the time the process was not running.
- "CPU per refund": the client's \`refundCapturedReservation\` against a bare request with the same
  bytes plus fast-xml-parser's own parse (client settings) of the same answer, which is what any
  client that reads AltaPay's answer pays; 7 rounds x 300 refunds at 64 in flight per variant.
- The memory operation runs without the socket (100,000 sandbox round trips do not fit the time budget on
  this machine); the round trips themselves hold nothing once answered (the refund and token paths keep
  only bounded caches: \`IdempotencyCache\` max 10,000 entries, one MERCHANT token).

### Payouts import

- The sandbox process generates each funding file's lines from their index as it sends them (chunked),
  so neither it nor the bench holds a file; the client reads the download with csv-parse as it arrives
  and the module's \`importFundingFile\` writes the lines in batches of 1,000 in one transaction per file.
- The tables are created by running the module's migrations' SQL on a fresh database of an embedded
  Postgres with durability off (no fsync, no synchronous commit): a best case for the import's writes.
- Memory is this process's alone (the sandbox and Postgres are other processes). The sampled peak heap
  counts garbage V8 has not collected yet, so it follows the collector's schedule more than the work;
  the heap after a full GC in the middle of each file is what an import holds, and its ratio between
  10,000- and 1,000-line files says whether memory grows with a file's size.
- Medusa's side: every tenth line of the series has a capture or refund (100,000); 60 % carry the line's
  reconciliation identifier, 40 % are captures whose identifier AltaPay did not keep, which match by
  AltaPay payment and amount. The other lines stay unmatched, so the exceptions list is at its largest.
- Wall times of one run on a shared machine; a read is its first call and the median of five more.
`
