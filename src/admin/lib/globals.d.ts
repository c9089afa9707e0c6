/** Defined by Medusa's admin build: the backend's URL ("" or "/" when the admin is served by it). */
declare const __BACKEND_URL__: string | undefined
/** Defined by Medusa's admin build: "session" (default) or "jwt" (ADMIN_AUTH_TYPE). */
declare const __AUTH_TYPE__: string | undefined
/** Defined by Medusa's admin build: where the dashboard keeps its JWT with auth type "jwt". */
declare const __JWT_TOKEN_STORAGE_KEY__: string | undefined
