/** `pnpm --filter @levy/example-standalone start`: the server, an account and the tour, then exit. */
import { startServer } from "./server.js"
import { tour } from "./tour.js"

const running = await startServer()
try {
  console.log(`Levy at ${running.url}, account ${running.account.accountId}`)
  await tour(running.url, running.account.keys.secretDev, console.log)
} finally {
  await running.close()
}
