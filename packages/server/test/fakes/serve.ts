/**
 * A fake processor as a standalone process, for tests that run a real `levy serve` child:
 *
 *   node --import tsx packages/server/test/fakes/serve.ts stripe|adyen [--port N]
 *
 * prints one JSON line on stdout once listening — `{"processor","url",…credentials}` — and
 * serves until killed. Payments are read, and webhooks pointed, through the fake's
 * `/_fake/…` control endpoints (see FakeStripe.ts / FakeAdyen.ts).
 */
import { startFakeAdyen } from "./FakeAdyen.js"
import { startFakeStripe } from "./FakeStripe.js"

const [processor, ...rest] = process.argv.slice(2)
const portFlag = rest.indexOf("--port")
const port = portFlag === -1 ? 0 : Number(rest[portFlag + 1])

const started =
  processor === "stripe"
    ? startFakeStripe({ port }).then((f) => ({ processor, url: f.url, secretKey: f.secretKey }))
    : processor === "adyen"
      ? startFakeAdyen({ port }).then((f) => ({
          processor,
          url: f.url,
          apiKey: f.apiKey,
          merchantAccount: f.merchantAccount
        }))
      : Promise.reject(new Error("usage: serve.ts stripe|adyen [--port N]"))

started.then(
  (info) => process.stdout.write(`${JSON.stringify(info)}\n`),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`)
    process.exit(2)
  }
)
