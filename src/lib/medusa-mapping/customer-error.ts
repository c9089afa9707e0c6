/**
 * A refusal the customer reads (saved cards at checkout): Medusa answers it with its English text and
 * its stable code (`altapay_<key>`), which the storefront helper and the kit turn into the customer's
 * language (src/lib/languages/customer-messages.ts).
 */
import { MedusaError } from "@medusajs/framework/utils"
import { customerMessage, customerMessageCode, type CustomerMessageKey } from "../languages/customer-messages"
import type { TextValues } from "../languages/text"

export const customerError = (key: CustomerMessageKey, values?: TextValues): MedusaError =>
  new MedusaError(MedusaError.Types.NOT_ALLOWED, customerMessage(key, values), customerMessageCode(key))
