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
- "CPU µs per operation" is \`process.cpuUsage()\` of this process and of the sandbox process over the
  throughput rounds, divided by the operations. It explains the throughput ratios: with 2 cores shared
  by the client, the sandbox and other work, throughput follows total CPU per operation.

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
   whose answer was lost (\`UncertainRefunds\`).
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
  (\`htmlEntities\`) only for bodies that contain a reference. What remains is one fast-xml-parser parse
  per answer, the floor with this parser, and the refund's look-up (previous section), which doubles
  the XML read per refund on purpose.
- **Session creation:** the client's CPU per session is about twice the bare request's (see the CPU
  row): \`sessionBody\` checks the order lines and formats amounts, the answer is checked with zod
  (\`sessionSchema\`), and the provider adds the context lines' zod check (\`session-lines.ts\`), the
  compensation line and \`freshPaymentData\`. No single hot spot: the profile spreads it across these in
  shares of 2-7%. The provider's extra over the client row is its mapping; the client's extra over bare
  is validating and parsing.

### CPU and memory

- The parse figure compares \`parseGatewayResponse\` with fast-xml-parser configured as the client
  configures it for a body without character references (attributes, no value parsing, repeated
  elements as arrays). The difference is the zod check and the mapping to typed records with exact
  amounts and dates. The \`XMLValidator.validate\` time is shown for reference: the client no longer
  runs it on well-formed answers.
- The memory operation runs without the socket (100,000 sandbox round trips do not fit the time budget on
  this machine); the round trips themselves hold nothing once answered (the refund and token paths keep
  only bounded caches: \`IdempotencyCache\` max 10,000 entries, one MERCHANT token).
`
