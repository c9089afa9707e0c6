import { describeMedusaCarts } from "./carts"

describeMedusaCarts("jpy")
