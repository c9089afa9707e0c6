import { describeMedusaCarts } from "./carts"

describeMedusaCarts("kwd")
