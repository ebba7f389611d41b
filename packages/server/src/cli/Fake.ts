/**
 * `levy fake stripe|adyen [--port N] [--json]`: a local fake of the processor's API (src/fakes/,
 * following its published API reference for the calls Levy makes) on 127.0.0.1, accepting
 * live-looking credentials, so Levy's live mode can be tried end to end on one machine
 * (docs/processors.md "Trying live mode on one machine"). It prints the base-URL setting that
 * points Levy at it and the next commands, and serves until interrupted.
 *
 * Levy never finds a fake by itself: only `LEVY_<PROCESSOR>_API_BASE_URL`, set by hand, sends
 * its requests here (a server setting, never an account's; `levy serve` says at start where
 * each processor's requests go when it is set). The credentials are fake by name, so none is
 * mistaken for a real one, and a real processor refuses them.
 */

import * as ApiBaseUrls from "@levy/engine/processors/ApiBaseUrls.js"
import { Console, Effect } from "effect"
import { CommandFailed } from "./Args.js"

export type Processor = "stripe" | "adyen"

/** Where each fake listens unless `--port` says otherwise (Levy itself: 4000). */
export const DEFAULT_PORTS: Readonly<Record<Processor, number>> = { stripe: 4100, adyen: 4101 }

/** What the fake Stripe accepts: a live key, and a test key for Levy's test mode. */
export const STRIPE = {
  secretKey: "sk_live_levy_fake_0000000000000000",
  testSecretKey: "sk_test_levy_fake_0000000000000000",
  webhookSecret: "whsec_levy_fake_0000000000000000"
} as const

/** What the fake Adyen (a live environment) accepts, and the HMAC key to save for its webhooks. */
export const ADYEN = {
  apiKey: "AQE_levy_fake_live_api_key_0000",
  merchantAccount: "LevyFakeLiveECOM",
  hmacKey: "4c455659464146454c4956454b4559304c455659464146454c4956454b455930"
} as const

/** A fake listening: its base URL and how to stop it. */
interface Running {
  readonly url: string
  readonly close: () => Promise<void>
}

/** Starts the fake (its module loaded only now: no other command pays for it). */
const start = (processor: Processor, port: number): Promise<Running> =>
  processor === "stripe"
    ? import("../fakes/FakeStripe.js").then(({ startFakeStripe }) =>
        startFakeStripe({
          secretKey: STRIPE.secretKey,
          otherSecretKeys: [STRIPE.testSecretKey],
          port
        })
      )
    : import("../fakes/FakeAdyen.js").then(({ startFakeAdyen }) =>
        startFakeAdyen({
          apiKey: ADYEN.apiKey,
          merchantAccount: ADYEN.merchantAccount,
          live: true,
          port
        })
      )

/** The credentials to save in Levy for the fake, by credential name. */
export const credentials = (processor: Processor): Readonly<Record<string, string>> =>
  processor === "stripe"
    ? { secretKey: STRIPE.secretKey, webhookSecret: STRIPE.webhookSecret }
    : { apiKey: ADYEN.apiKey, merchantAccount: ADYEN.merchantAccount, hmacKey: ADYEN.hmacKey }

/** A live charge's `source` the fake knows: Stripe's test card, Adyen's `test_` card values. */
const SOURCE: Readonly<Record<Processor, string>> = {
  stripe: "pm_card_visa",
  adyen: JSON.stringify({
    type: "scheme",
    encryptedCardNumber: "test_4111111111111111",
    encryptedExpiryMonth: "test_03",
    encryptedExpiryYear: "test_2030",
    encryptedSecurityCode: "test_737"
  })
}

/** How to start the fake's notifications towards Levy, and one to send. */
const notifications = (processor: Processor, url: string, webhookUrl: string) =>
  processor === "stripe"
    ? [
        `  curl ${url}/_fake/webhook -d '{"url":"${webhookUrl}","secret":"${STRIPE.webhookSecret}"}'`,
        `  curl ${url}/_fake/refund -d '{"payment_intent":"pi_…","amount":500}'   # a refund "in the Stripe Dashboard": refund.created`
      ]
    : [
        `  curl ${url}/_fake/webhook -d '{"url":"${webhookUrl}","hmacKey":"${ADYEN.hmacKey}"}'`,
        `  curl ${url}/_fake/refund -d '{"pspReference":"<pspReference>","value":500}'   # a refund "in the Customer Area": REFUND`
      ]

/** What the command prints for a person: the setting, the credentials, the next commands. */
export const instructions = (processor: Processor, url: string): ReadonlyArray<string> => {
  const name = processor === "stripe" ? "Stripe" : "Adyen"
  const variable = ApiBaseUrls.variable(processor)
  // A data directory of its own, so a development store in ./.levy is left alone.
  const store = "--data-dir .levy-live"
  const flags = Object.entries(credentials(processor))
    .map(([field, value]) => `--credential ${field}=${value}`)
    .join(" ")
  const body = JSON.stringify({
    amount: 10000,
    currency: "usd",
    source: SOURCE[processor],
    region: "US-NY"
  }).replace(/'/g, "'\\''")
  return [
    `Fake ${name} listening on ${url}: a local stand-in following ${name}'s API reference for the calls Levy makes. Not ${name}: no money moves, nothing leaves this machine.`,
    processor === "stripe"
      ? `It accepts the live secret key ${STRIPE.secretKey} (and the test key ${STRIPE.testSecretKey}); cards are Stripe's test PaymentMethods (pm_card_visa, pm_card_chargeDeclined, …).`
      : `It plays Adyen's live environment: API key ${ADYEN.apiKey}, merchant account ${ADYEN.merchantAccount}; cards are Adyen's test_ card values (test_4111111111111111), holderName DECLINED refuses.`,
    "",
    "In another terminal, point Levy at it (Levy talks to a fake only when this is set) and try live mode end to end:",
    `  export ${variable}=${url}`,
    `  levy accounts create --name "Live trial" ${store}   # note acct_… and the live secret key sk_prod_…`,
    `  levy processors set ${processor} --live --account acct_… ${store} ${flags}`,
    `  levy serve ${store}`,
    `  curl http://127.0.0.1:4000/v1/charges -H "Authorization: Bearer sk_prod_…" -H "Idempotency-Key: live-try-1" -H "Content-Type: application/json" -d '${body}'`,
    `  curl ${url}/_fake/payments   # the payment Levy made: amount = base + fee, metadata levy_fee, levy_charge, levy_account`,
    "Its notifications to Levy (refunds, disputes made at the processor):",
    ...notifications(
      processor,
      url,
      `http://127.0.0.1:4000/v1/processor-webhooks/acct_…/live/${processor}`
    ),
    "",
    'Ctrl-C stops it; it keeps everything in memory. docs/processors.md, "Trying live mode on one machine".'
  ]
}

/** One JSON line for a program: the URL, the setting, the credentials. */
const jsonLine = (processor: Processor, url: string) =>
  JSON.stringify({
    processor,
    url,
    env: { [ApiBaseUrls.variable(processor)]: url },
    credentials: credentials(processor),
    ...(processor === "stripe" ? { testSecretKey: STRIPE.testSecretKey } : {})
  })

/** Serves the fake until interrupted, after printing how to use it. */
export const run = (command: {
  readonly processor: Processor
  readonly port: number | undefined
  readonly json: boolean
}) => {
  const port = command.port ?? DEFAULT_PORTS[command.processor]
  return Effect.acquireRelease(
    Effect.tryPromise({
      try: () => start(command.processor, port),
      catch: (e) =>
        new CommandFailed({
          message: `the fake ${command.processor} cannot listen on 127.0.0.1:${port} (${String(e)}); choose another with --port N (0: any free port)`
        })
    }),
    (fake) => Effect.promise(fake.close)
  ).pipe(
    Effect.tap((fake) =>
      Console.log(
        command.json
          ? jsonLine(command.processor, fake.url)
          : instructions(command.processor, fake.url).join("\n")
      )
    ),
    Effect.zipRight(Effect.never),
    Effect.scoped
  )
}
