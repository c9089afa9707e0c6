import { describeMedusaCarts } from "./carts"

describeMedusaCarts("dkk")
