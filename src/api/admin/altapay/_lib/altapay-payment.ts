/** The admin routes load payments with the shared loader (item captures use it outside routes too). */
export * from "../../../../lib/medusa-mapping/altapay-payment"
