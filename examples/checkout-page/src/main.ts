/**
 * `pnpm --filter @levy/example-checkout-page start`: the checkout at http://localhost:3000
 * (PORT) with Levy in this process on a memory store; or, with LEVY_URL, LEVY_SECRET_KEY and
 * LEVY_PUBLISHABLE_KEY (test-mode keys, e.g. from `.levy/dev-account.json` of `pnpm start`),
 * against that Levy server.
 */
import type { External } from "./levy.js"
import { startCheckout } from "./server.js"

const external = (): External | undefined => {
  const {
    LEVY_URL: url,
    LEVY_SECRET_KEY: secretKey,
    LEVY_PUBLISHABLE_KEY: publishableKey
  } = process.env
  if (url === undefined) return undefined
  if (secretKey === undefined || publishableKey === undefined) {
    console.error("with LEVY_URL, set LEVY_SECRET_KEY and LEVY_PUBLISHABLE_KEY too")
    process.exit(2)
  }
  return { url, secretKey, publishableKey }
}

const levy = external()
const checkout = await startCheckout({
  port: Number(process.env.PORT ?? 3000),
  host: "localhost",
  ...(levy === undefined ? {} : { levy })
})
console.log(`checkout at ${checkout.url}/ (Levy at ${checkout.levy.url})`)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void checkout.close()
  })
}
