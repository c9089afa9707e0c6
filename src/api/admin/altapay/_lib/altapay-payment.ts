/**
 * The admin routes load payments with the shared loader (item captures use it outside routes
 * too), plus the order's status: the panel tells when a canceled order's uncaptured rest is only
 * waiting to lapse (./reservation-left).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { loadAltaPayPayment as loadSharedPayment, type AltaPayPayment as SharedPayment, type OrderForLines } from "../../../../lib/medusa-mapping/altapay-payment"

export * from "../../../../lib/medusa-mapping/altapay-payment"

/** The shared payment with its order's status ("canceled" once the order is canceled). */
export type AltaPayPayment = Omit<SharedPayment, "order"> & { order: (OrderForLines & { status?: string | null }) | undefined }

export async function loadAltaPayPayment(container: MedusaContainer, id: string): Promise<AltaPayPayment> {
  const payment = await loadSharedPayment(container, id)
  if (!payment.order) return payment
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["id", "status"], filters: { id: payment.order.id } })
  return { ...payment, order: { ...payment.order, status: (data[0] as { status?: string } | undefined)?.status ?? null } }
}
