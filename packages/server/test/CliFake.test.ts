/**
 * Live mode tried on one machine (docs/processors.md "Trying live mode on one machine"):
 * `levy fake stripe` and `levy fake adyen` as child processes, `levy serve` on an embedded
 * store pointed at them with the base-URL settings they print, a live processor configuration
 * saved with their live-looking credentials through `/v1/processor-config` by one live key and
 * approved by another, and a live charge that reaches the fake: it recorded exactly one
 * payment, of the charge's total, with Levy's metadata. Adyen's notifications reach Levy's
 * live URL too (the fake plays Adyen's live environment).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Fake from "../src/cli/Fake.js"
import { levy, type Proc, waitFor } from "./levyProcess.js"
import { eventually } from "./WebhooksSupport.js"

const dataDir = mkdtempSync(join(tmpdir(), "levy-cli-fake-"))
const storeArgs = ["--store", "embedded", "--data-dir", dataDir]
const running: Array<Proc> = []

const start = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const proc = levy(args, env)
  running.push(proc)
  return proc
}

/** Runs a store command to its end; its JSON output. */
const runJson = async (args: ReadonlyArray<string>) => {
  const proc = start([...args, "--json", ...storeArgs])
  expect(await proc.exited, proc.stderr).toBe(0)
  return JSON.parse(proc.stdout) as Record<string, unknown>
}

interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
}

let levyUrl = ""
const api = async (
  method: string,
  path: string,
  key: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<Answer> => {
  const response = await fetch(`${levyUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** A fake's recorded payments, through its control endpoint. */
const paymentsAt = async (url: string) =>
  (await (await fetch(`${url}/_fake/payments`)).json()) as ReadonlyArray<Record<string, unknown>>

let stripeFake: Proc
let stripeUrl = ""
let adyenUrl = ""
let accountId = ""
let liveKey = ""
let approverKey = ""
let serving: Proc

/** Saves a live configuration with one key, approves it with the other: applied. */
const connect = async (processor: Fake.Processor) => {
  const saved = await api("POST", "/v1/processor-config", liveKey, {
    processor,
    credentials: Fake.credentials(processor)
  })
  expect(saved.status, JSON.stringify(saved.body)).toBe(200)
  expect(saved.body).toMatchObject({ livemode: true, applied: false })
  const held = (saved.body.pendingChange as { id: string }).id
  const approved = await api("POST", "/v1/processor-config/pending/approve", approverKey, {
    id: held
  })
  expect(approved.status, JSON.stringify(approved.body)).toBe(200)
  expect(approved.body).toMatchObject({ id: held, status: "applied" })
}

/** A live charge of 100.00 USD in US-NY that must succeed: its id, total and fee. */
const liveCharge = async (source: string, idempotencyKey: string) => {
  const charged = await api(
    "POST",
    "/v1/charges",
    liveKey,
    { amount: 10_000, currency: "usd", source, region: "US-NY", metadata: { order: "o-1" } },
    { "idempotency-key": idempotencyKey }
  )
  expect(charged.status, JSON.stringify(charged.body)).toBe(200)
  expect(charged.body).toMatchObject({ status: "succeeded", livemode: true })
  return charged.body as { id: string; totalAmount: number; convenienceFee: number }
}

beforeAll(async () => {
  stripeFake = start(["fake", "stripe", "--port", "0"])
  const adyenFake = start(["fake", "adyen", "--port", "0", "--json"])
  stripeUrl = (
    await waitFor(stripeFake, /Fake Stripe listening on (http:\/\/127\.0\.0\.1:\d+)/)
  )[1]!
  const adyenInfo = JSON.parse((await waitFor(adyenFake, /^\{.*\}$/m))[0])
  adyenUrl = adyenInfo.url
  const env = { LEVY_STRIPE_API_BASE_URL: stripeUrl, LEVY_ADYEN_API_BASE_URL: adyenUrl }
  // Two live keys: a live processor change asked for by one is applied by another.
  const created = await runJson(["accounts", "create", "--name", "Live trial"])
  accountId = String(created.accountId)
  liveKey = String((created.keys as Record<string, string>).secretProd)
  const approver = await runJson([
    "keys",
    "create",
    "--mode",
    "live",
    "--name",
    "approver",
    "--account",
    accountId
  ])
  approverKey = String(approver.secret)
  serving = start(["serve", "--port", "0", ...storeArgs], env)
  levyUrl = (await waitFor(serving, /Levy is listening on (http:\/\/\S+)/))[1]!
}, 180_000)

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL")
  rmSync(dataDir, { recursive: true, force: true })
})

describe("levy fake", () => {
  it("prints the base-URL setting, the live credentials and the next commands", () => {
    expect(stripeFake.stdout).toContain(`export LEVY_STRIPE_API_BASE_URL=${stripeUrl}`)
    expect(stripeFake.stdout).toContain(`--credential secretKey=${Fake.STRIPE.secretKey}`)
    expect(stripeFake.stdout).toContain("levy processors set stripe --live")
    expect(stripeFake.stdout).toContain(`curl ${stripeUrl}/_fake/payments`)
    expect(Fake.STRIPE.secretKey).toMatch(/^sk_live_/)
  })

  it("levy serve says where each processor's requests go when a base URL is set", () => {
    expect(serving.stdout).toContain(
      `stripe API requests go to ${stripeUrl} (LEVY_STRIPE_API_BASE_URL)`
    )
    expect(serving.stdout).toContain(
      `adyen API requests go to ${adyenUrl} (LEVY_ADYEN_API_BASE_URL)`
    )
  })

  it("a live Stripe charge, configured with the fake's live key, reaches the fake once", async () => {
    await connect("stripe")
    const { id, totalAmount, convenienceFee } = await liveCharge("pm_card_visa", "live-stripe-1")
    expect(convenienceFee).toBeGreaterThan(0)
    const payments = await paymentsAt(stripeUrl)
    expect(payments).toHaveLength(1)
    expect(payments[0]).toMatchObject({
      secretKey: Fake.STRIPE.secretKey,
      amount: totalAmount,
      currency: "usd",
      status: "succeeded",
      metadata: {
        order: "o-1",
        levy_charge: id,
        levy_account: accountId,
        levy_fee: String(convenienceFee),
        levy_idempotency_key: `levy_${id}`
      }
    })
  })

  it("a live Adyen charge reaches the fake once, and its live notifications reach Levy", async () => {
    await connect("adyen")
    const source = JSON.stringify({
      type: "scheme",
      encryptedCardNumber: "test_4111111111111111",
      encryptedExpiryMonth: "test_03",
      encryptedExpiryYear: "test_2030",
      encryptedSecurityCode: "test_737"
    })
    const { id, totalAmount, convenienceFee } = await liveCharge(source, "live-adyen-1")
    const payments = await paymentsAt(adyenUrl)
    expect(payments).toHaveLength(1)
    const [payment] = payments as ReadonlyArray<{ pspReference: string }>
    expect(payment).toMatchObject({
      merchantReference: `levy_${id}`,
      amount: { value: totalAmount, currency: "USD" },
      resultCode: "Authorised",
      metadata: {
        order: "o-1",
        levy_charge: id,
        levy_account: accountId,
        levy_fee: String(convenienceFee)
      }
    })
    // A refund made "in the Customer Area" arrives as a live REFUND notification at the live URL.
    const webhookUrl = `${levyUrl}/v1/processor-webhooks/${accountId}/live/adyen`
    await fetch(`${adyenUrl}/_fake/webhook`, {
      method: "POST",
      body: JSON.stringify({ url: webhookUrl, hmacKey: Fake.ADYEN.hmacKey })
    })
    await fetch(`${adyenUrl}/_fake/refund`, {
      method: "POST",
      body: JSON.stringify({ pspReference: payment?.pspReference, value: 1_000 })
    })
    let refunded: unknown
    await eventually("the REFUND notification applied", async () => {
      refunded = (await api("GET", `/v1/charges/${id}`, liveKey)).body.amountRefunded
      return refunded !== 0
    })
    expect(refunded).toBe(1_000)
  })
})
