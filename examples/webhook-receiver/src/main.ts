/**
 * `LEVY_WEBHOOK_SECRET=whsec_dev_… PORT=8787 pnpm --filter @levy/example-webhook-receiver start`,
 * then register http://127.0.0.1:8787/ with `levy.webhookEndpoints.create`.
 */
import { Ledger } from "./Ledger.js"
import { createReceiver } from "./receiver.js"

const secret = process.env.LEVY_WEBHOOK_SECRET
if (secret === undefined)
  throw new Error("set LEVY_WEBHOOK_SECRET to the endpoint's signing secret")
const port = Number(process.env.PORT ?? 8787)
const ledger = new Ledger()
createReceiver(secret, ledger).listen(port, "127.0.0.1", () => {
  console.log(`webhook receiver on http://127.0.0.1:${port}/`)
})
