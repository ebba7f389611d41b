/**
 * The dashboard's Payment processor page in headless Chromium, against a real in-process
 * server whose Stripe API is the local fake: nothing connected at first; a key Stripe refuses
 * is shown with Stripe's reason; the right key connects Stripe and the page shows it masked
 * with the webhook URL to register; the secret itself appears nowhere on the page; Disconnect
 * removes it. Adyen's form asks for Adyen's credentials. In live mode connecting is held until
 * another secret key approves it: the page shows the held change, refuses its requester's
 * approval, and applies it when the second key approves. Screenshots go to test-artifacts/.
 * Skipped without Chromium locally, failing under CI.
 */
import { existsSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Browser, chromium, type Page } from "playwright-core"
import { type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"
import { watch } from "./DashboardBrowserSupport.js"
import {
  call,
  KEYS_WITH_APPROVER,
  LIVE_APPROVER,
  LIVE_SECRET,
  type Running,
  SECRET,
  start
} from "./support.js"

const CHROMIUM = "/usr/bin/chromium"
const installed = existsSync(CHROMIUM)
const ci = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false"
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), "../../../test-artifacts")
const WEBHOOK_SECRET = "whsec_dashboard0123456789abcdefgh"
const LIVE_STRIPE_KEY = "sk_live_dashboardFake0123456787777"

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true })

describe.runIf(installed || ci)(
  "the dashboard's Payment processor page in headless Chromium",
  () => {
    let stripe: FakeStripe
    let server: Running
    let browser: Browser
    let page: Page
    const errors: Array<string> = []

    beforeAll(async () => {
      if (!installed) return
      stripe = await startFakeStripe({
        secretKey: "sk_test_dashboardFake0123456784242",
        otherSecretKeys: [LIVE_STRIPE_KEY]
      })
      server = await start({
        keys: KEYS_WITH_APPROVER,
        processorApiBaseUrls: { stripe: stripe.url }
      })
      mkdirSync(ARTIFACTS, { recursive: true })
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
      })
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      watch(page, errors)
      await signIn(SECRET)
    }, 30_000)

    const signIn = async (key: string) => {
      await page.goto(`${server.url}/dashboard`)
      if ((await page.getByRole("button", { name: "Sign out" }).count()) > 0) {
        await page.getByRole("button", { name: "Sign out" }).click()
      }
      await page.getByLabel("Secret key").fill(key)
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.getByRole("link", { name: "Payment processor" }).click()
    }

    afterAll(async () => {
      await browser?.close()
      await server?.close()
      await stripe?.close()
    })

    const connect = async (secretKey: string) => {
      await page.locator('select[name="processor"]').selectOption("stripe")
      await page.getByLabel("Secret or restricted key").fill(secretKey)
      await page.getByLabel("Webhook signing secret").fill(WEBHOOK_SECRET)
      await page.getByRole("button", { name: "Connect", exact: true }).click()
    }

    it("connects Stripe against the fake and shows it masked with its webhook URL", async () => {
      expect(installed, `${CHROMIUM} is missing; CI must install it (.ci/run)`).toBe(true)
      await expect
        .poll(() => page.getByRole("main").textContent())
        .toContain("No processor is connected in test mode")

      // Adyen's form asks for Adyen's credentials.
      await page.locator('select[name="processor"]').selectOption("adyen")
      await expect.poll(() => page.getByLabel("Merchant account").count()).toBe(1)
      expect(await page.getByLabel("Secret or restricted key").count()).toBe(0)

      // A key Stripe refuses: its reason, and nothing connected.
      await connect("sk_test_refusedByTheFake0000000000")
      await expect
        .poll(() => page.getByRole("alert").textContent())
        .toContain("Stripe refused these credentials")
      await shot(page, "processor-refused")
      expect((await call(server.url, "GET", "/v1/processor-config")).status).toBe(404)

      // The key alone first: connected, with a warning until the webhook secret is saved too.
      await page.locator('select[name="processor"]').selectOption("stripe")
      await page.getByLabel("Secret or restricted key").fill(stripe.secretKey)
      await page.getByRole("button", { name: "Connect", exact: true }).click()
      await expect
        .poll(() => page.getByTestId("missing-signing-secret").textContent())
        .toContain("No webhook signing secret yet")
      await shot(page, "processor-key-only")

      await connect(stripe.secretKey)
      await expect.poll(() => page.getByTestId("missing-signing-secret").count()).toBe(0)
      const card = page.getByTestId("processor-config")
      await expect.poll(() => card.textContent()).toContain("Stripe is connected (test mode)")
      expect(await page.locator('[data-credential="secretKey"]').textContent()).toBe(
        "sk_test_…4242"
      )
      expect(await page.locator('[data-credential="webhookSecret"]').textContent()).toBe(
        "whsec_…efgh"
      )
      expect(await page.getByTestId("processor-webhook-url").textContent()).toBe(
        `${new URL(server.url).origin}/v1/processor-webhooks/acct_1/test/stripe`
      )
      // The secrets are nowhere on the page (the form was cleared after saving).
      const html = await page.content()
      expect(html).not.toContain(stripe.secretKey)
      expect(html).not.toContain(WEBHOOK_SECRET)
      const inputs = await page.evaluate<Array<string>>(
        "[...document.querySelectorAll('input')].map((e) => e.value)"
      )
      expect(inputs).not.toContain(stripe.secretKey)
      await shot(page, "processor-connected")
      expect((await call(server.url, "GET", "/v1/processor-config")).status).toBe(200)
    }, 50_000)

    it("disconnects", async () => {
      await page.getByRole("button", { name: "Disconnect" }).click()
      await expect
        .poll(() => page.getByRole("main").textContent())
        .toContain("Disconnected Stripe. Test charges will use the built-in simulator.")
      expect((await call(server.url, "GET", "/v1/processor-config")).status).toBe(404)
      expect(errors).toEqual([])
    }, 30_000)

    it("live mode: connecting waits for another key, which approves it on this page", async () => {
      await signIn(LIVE_SECRET)
      await expect
        .poll(() => page.getByRole("main").textContent())
        .toContain("No processor is connected in live mode")
      await page.locator('select[name="processor"]').selectOption("stripe")
      await page.getByLabel("Secret or restricted key").fill(LIVE_STRIPE_KEY)
      await page.getByRole("button", { name: "Connect", exact: true }).click()
      const held = page.getByTestId("processor-held")
      await expect.poll(() => held.textContent()).toContain("Connect Stripe with these credentials")
      expect(await page.getByRole("main").textContent()).toContain(
        "waits for another secret key to approve it"
      )
      expect(await page.locator('[data-held-credential="secretKey"]').textContent()).toBe(
        "sk_live_…7777"
      )
      expect(await page.content()).not.toContain(LIVE_STRIPE_KEY)
      // Nothing is in force yet.
      expect(
        (await call(server.url, "GET", "/v1/processor-config", { key: LIVE_SECRET })).status
      ).toBe(404)
      // Its requester cannot approve it.
      await held.getByRole("button", { name: "Approve" }).click()
      await expect
        .poll(() => held.getByRole("alert").textContent())
        .toContain("different secret key")
      await shot(page, "processor-held")
      expect(
        (await call(server.url, "GET", "/v1/processor-config", { key: LIVE_SECRET })).status
      ).toBe(404)

      // The second key sees it and approves it.
      await signIn(LIVE_APPROVER)
      await expect.poll(() => page.getByTestId("processor-held").count()).toBe(1)
      await page.getByTestId("processor-held").getByRole("button", { name: "Approve" }).click()
      await expect
        .poll(() => page.getByRole("main").textContent())
        .toContain("Approved: Stripe is connected in live mode.")
      await expect
        .poll(() => page.getByTestId("processor-config").textContent())
        .toContain("Stripe is connected (live mode)")
      expect(await page.getByTestId("processor-held").count()).toBe(0)
      await shot(page, "processor-approved")
      const inForce = await call(server.url, "GET", "/v1/processor-config", { key: LIVE_SECRET })
      expect(inForce.body).toMatchObject({ credentials: { secretKey: "sk_live_…7777" } })
      expect(errors).toEqual([])
    }, 60_000)
  }
)
