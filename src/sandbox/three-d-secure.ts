/**
 * The 3-D Secure page, `/sandbox/3ds/<id>`, for every card road (challenges.ts): the customer
 * answers **Authenticate** or **Fail**, and the road goes on as AltaPay's would after its ACS: a
 * payment is reserved (or declined, `3dsecure_failed`) and the customer returned; a set-up makes
 * (or fails) the agreement and posts its callbacks; a charge is made (or not) and posted to the
 * agreement's set-up callbacks. Each answer is the page's one: answering twice is a 409.
 */
import { answerChargeChallenge, answerSetupChallenge, page } from "./agreements/agreement-page"
import type { Challenge } from "./challenges"
import type { Exchange, SandboxEnv } from "./env"
import { completeOnPage } from "./hosted-page/hosted-page"
import type { Reply } from "./http"

export type ChallengeAnswer = "authenticated" | "failed"

export function showChallenge(ex: Exchange, challengeId: string): Reply {
  if (!ex.env.store.challenges.get(challengeId)) {
    return ex.env.store.challenges.wasAnswered(challengeId)
      ? page(409, "Already answered", "<p>This challenge was already answered.</p>")
      : page(404, "Challenge not found", "<p>No such 3-D Secure challenge.</p>")
  }
  return page(
    200,
    "3-D Secure (sandbox)",
    `<form method="post"><button name="outcome" value="authenticated" id="authenticate">Authenticate</button><button name="outcome" value="failed" id="fail">Fail</button></form>`
  )
}

/** The page's POST: the customer's answer. */
export function answerChallenge(ex: Exchange, challengeId: string): Promise<Reply> {
  const outcome: ChallengeAnswer = new URLSearchParams(ex.rawBody).get("outcome") === "failed" ? "failed" : "authenticated"
  ex.params = { challengeId, outcome }
  return answer(ex, challengeId, outcome)
}

/** Answers a challenge as the page does (also `sandbox.challenge(url, outcome)`): what the browser gets next. */
export async function answer(ex: Exchange, challengeId: string, outcome: ChallengeAnswer): Promise<Reply> {
  const challenge = ex.env.store.challenges.get(challengeId)
  if (!challenge) return gone(ex.env, challengeId)
  ex.params = { ...ex.params, kind: challenge.kind }
  if (challenge.kind === "charge") return answerChargeChallenge(ex.env, challengeId, outcome)
  ex.env.store.challenges.close(challengeId)
  return answerOther(ex, challenge, outcome)
}

async function answerOther(ex: Exchange, challenge: Exclude<Challenge, { kind: "charge" }>, outcome: ChallengeAnswer): Promise<Reply> {
  if (challenge.kind === "setup") return (await answerSetupChallenge(ex.env, challenge.requestId, challenge.card, outcome)).reply
  const payment = ex.env.store.payments.get(challenge.paymentId)
  if (!payment) return page(404, "Payment not found", "<p>This payment does not exist.</p>")
  const details = { ...challenge.details, threeDSecure: outcome === "authenticated" ? ("Successful" as const) : ("Declined" as const) }
  return completeOnPage(ex, payment, "authorize", details, challenge.returnDelayMs ?? 0)
}

const gone = (env: SandboxEnv, challengeId: string): Reply =>
  env.store.challenges.wasAnswered(challengeId)
    ? page(409, "Already answered", "<p>This challenge was already answered.</p>")
    : page(404, "Challenge not found", "<p>No open 3-D Secure challenge with that id.</p>")
