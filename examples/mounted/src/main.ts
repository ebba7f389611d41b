/**
 * `pnpm --filter @levy/example-mounted start [express|fastify|hono]`: the app on PORT (3000)
 * with Levy under /levy on the embedded store in ./.levy, and a new account whose test-mode
 * secret key is printed once.
 */
import { Mount } from "@levy/server"
import { type Framework, frameworks, listen } from "./listen.js"

const framework = (process.argv[2] ?? "express") as Framework
if (!frameworks.includes(framework)) {
  console.error(`usage: start [${frameworks.join("|")}]`)
  process.exit(2)
}
const levy = await Mount.make({ store: { store: "embedded", dataDir: ".levy" } })
const account = await levy.createAccount("Mounted example")
const running = await listen(framework, levy, Number(process.env.PORT ?? 3000), "localhost")
console.log(`${framework} app at ${running.url}, Levy at ${running.url}/levy/v1`)
console.log(`test-mode secret key of ${account.accountId} (shown once): ${account.keys.secretDev}`)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void running.close().then(() => levy.close())
  })
}
