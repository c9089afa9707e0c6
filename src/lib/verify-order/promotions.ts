/**
 * Whether every promotion the cart uses still applies now. Medusa keeps a cart's discounts as
 * adjustments, and when the cart completes it registers their use only for promotions it still
 * finds active (the promotion module's registerUsage skips any other), so a code that ended while
 * the customer paid would be honoured after the money moved. Read-only, with the rules Medusa's
 * promotion module applies: `listActivePromotions_` (status active, its campaign started and not
 * ended) and `registerUsage` (the promotion's `limit`, the campaign budget's usage or spend limit).
 */
import type { BigNumberInput, RemoteQueryFunction } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"

type Query = Pick<RemoteQueryFunction, "graph">

/** What the check reads of the cart: the codes of its discounts and their amounts. */
export const CART_FIELDS_FOR_PROMOTIONS = ["items.adjustments.code", "items.adjustments.amount", "shipping_methods.adjustments.code", "shipping_methods.adjustments.amount"]

interface Adjustment {
  code?: string | null
  amount?: BigNumberInput | null
}
export interface CartForPromotions {
  items?: Array<{ adjustments?: Array<Adjustment | null> | null } | null> | null
  shipping_methods?: Array<{ adjustments?: Array<Adjustment | null> | null } | null> | null
}

interface PromotionRow {
  code?: string | null
  status?: string | null
  limit?: number | null
  used?: number | null
  campaign?: {
    starts_at?: string | Date | null
    ends_at?: string | Date | null
    budget?: { type?: string | null; limit?: BigNumberInput | null; used?: BigNumberInput | null } | null
  } | null
}

/** Undefined when every discount of the cart still applies, else which one does not and why (for the merchant's log). */
export async function endedPromotion(query: Query, cart: CartForPromotions, now: Date = new Date()): Promise<string | undefined> {
  const spent = new Map<string, ReturnType<typeof MathBN.convert>>()
  for (const entry of [...(cart.items ?? []), ...(cart.shipping_methods ?? [])]) {
    for (const adjustment of entry?.adjustments ?? []) {
      if (!adjustment?.code) continue
      spent.set(adjustment.code, MathBN.add(spent.get(adjustment.code) ?? 0, adjustment.amount ?? 0))
    }
  }
  if (spent.size === 0) return undefined
  const { data } = await query.graph({
    entity: "promotion",
    fields: ["code", "status", "limit", "used", "campaign.starts_at", "campaign.ends_at", "campaign.budget.type", "campaign.budget.limit", "campaign.budget.used"],
    filters: { code: [...spent.keys()] },
  })
  const rows = new Map((data as PromotionRow[]).map((row) => [row.code ?? "", row]))
  for (const [code, amount] of spent) {
    const why = whyNotApplicable(rows.get(code), amount, now)
    if (why) return `promotion ${code} ${why}`
  }
  return undefined
}

function whyNotApplicable(promotion: PromotionRow | undefined, amount: BigNumberInput, now: Date): string | undefined {
  if (!promotion) return "no longer exists"
  if (promotion.status !== "active") return `is ${promotion.status ?? "not active"}`
  const campaign = promotion.campaign
  if (campaign?.starts_at && new Date(campaign.starts_at) > now) return "has not started"
  if (campaign?.ends_at && new Date(campaign.ends_at) <= now) return `ended at ${new Date(campaign.ends_at).toISOString()}`
  if (typeof promotion.limit === "number" && (promotion.used ?? 0) + 1 > promotion.limit) return `is used up (${promotion.limit} uses)`
  const budget = campaign?.budget
  if (budget?.limit != null) {
    const after = budget.type === "spend" ? MathBN.add(budget.used ?? 0, amount) : budget.type === "usage" ? MathBN.add(budget.used ?? 0, 1) : undefined
    if (after && MathBN.gt(after, budget.limit)) return `has used up its campaign's ${budget.type} budget`
  }
  return undefined
}
