/**
 * The dashboard's charge page for a charge that named a quote (docs/quotes.md), in headless
 * Chromium: the quote it honoured (shortened, the whole id on hover) with the promise that the
 * fee is never more than the one shown, and the card charged as the processor described it. A
 * charge without a quote shows no quote. Skipped without Chromium locally, failing under CI.
 */
import { existsSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Browser, chromium, type Page } from "playwright-core"
import { call, PUBLISHABLE, type Running, SECRET, start } from "./support.js"

const CHROMIUM = "/usr/bin/chromium"
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), "../../../test-artifacts")
const installed = existsSync(CHROMIUM)
const ci = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false"
const WAIT = 15_000

describe.runIf(installed || ci)("the dashboard's charge page shows the quote, in Chromium", () => {
  let server: Running
  let browser: Browser
  let page: Page
  const errors: Array<string> = []

  beforeAll(async () => {
    if (!installed) return
    server = await start({ edge: { test: 100_000, live: 100_000 } })
    mkdirSync(ARTIFACTS, { recursive: true })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
    })
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    page.setDefaultTimeout(WAIT)
    page.on("pageerror", (error) => {
      errors.push(error.message)
    })
    await page.goto(`${server.url}/dashboard`)
    await page.getByLabel("Secret key").fill(SECRET)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByTestId("mode").waitFor()
  }, 30_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  const fact = (label: string) =>
    page
      .locator("dt", { hasText: new RegExp(`^${label}$`) })
      .locator("xpath=following-sibling::dd[1]")

  const open = async (id: string) => {
    await page.goto(`${server.url}/dashboard#/charges/${id}`)
    await page.getByRole("heading", { name: "Fee breakdown" }).waitFor()
  }

  it("shows the quote a charge honoured and the card charged", async () => {
    expect(installed, `${CHROMIUM} is missing; CI must install it (.ci/run)`).toBe(true)
    const order = { amount: 10_000, currency: "usd", region: "US-NY", source: "tok_gb" }
    // the checkout's part: a quote with the publishable key for the shopper's card
    const quoted = await call(server.url, "POST", "/v1/estimates", {
      key: PUBLISHABLE,
      body: order
    })
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200)
    const estimate = (quoted.body as { id: string }).id
    const made = await call(server.url, "POST", "/v1/charges", {
      key: SECRET,
      body: { ...order, estimate }
    })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const charge = made.body as { id: string; estimate: string }
    expect(charge.estimate).toBe(estimate)

    await open(charge.id)
    const shown = page.getByTestId("charge-estimate")
    await expect
      .poll(() => shown.textContent())
      .toBe(`${estimate.slice(0, 12)}…${estimate.slice(-4)}`)
    expect(await shown.getAttribute("title")).toBe(estimate)
    expect(await fact("Quote honoured").textContent()).toContain(
      "the fee collected is never more than the fee shown"
    )
    expect(await page.getByTestId("charge-card").textContent()).toBe(
      "funding credit · network visa · country GB · category consumer"
    )
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-charge-quote.png"), fullPage: true })
    expect(errors).toStrictEqual([])
  }, 30_000)

  it("shows no quote for a charge that named none", async () => {
    const made = await call(server.url, "POST", "/v1/charges", {
      key: SECRET,
      body: { amount: 10_000, currency: "usd", region: "US-NY", source: "tok_visa_debit" }
    })
    expect(made.status).toBe(200)
    await open((made.body as { id: string }).id)
    await expect
      .poll(() => page.getByTestId("charge-card").textContent())
      .toBe("funding debit · network visa · country unknown · category unknown")
    expect(await page.getByTestId("charge-estimate").count()).toBe(0)
    expect(await page.locator("dt", { hasText: /^Quote honoured$/ }).count()).toBe(0)
    expect(errors).toStrictEqual([])
  }, 30_000)
})
