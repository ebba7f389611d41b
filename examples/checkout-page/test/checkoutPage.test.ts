/**
 * The checkout page in headless Chromium (the system's /usr/bin/chromium, driven by
 * playwright-core) against its backend with Levy in-process, in US-NY (no surcharge on debit
 * cards): a credit card shows the fee, a debit card none, paying collects exactly the fee shown
 * under the quote shown, an earlier card's late answer is dropped, an altered quote is refused,
 * and a Levy on another origin works the same (CORS). Screenshots go to test-artifacts/.
 *
 * Without Chromium the file is skipped locally (with a message) and FAILS under CI=true.
 */
import { existsSync, mkdirSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Levy } from "@levy/client"
import { Mount } from "@levy/server"
import { type Browser, type BrowserContext, chromium, type Page, type Route } from "playwright-core"
import { type Checkout, startCheckout } from "../src/server.js"

const CHROMIUM = "/usr/bin/chromium"
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), "../../../test-artifacts")
const installed = existsSync(CHROMIUM)
const ci = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false"
if (!installed && !ci) {
  console.warn(
    `\n*** checkout-page browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium). ` +
      "Under CI=true this test fails instead. ***\n"
  )
}

/** Bounds on waiting for the page, not timed assertions. */
const WAIT = 15_000

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, `checkout-page-${name}.png`), fullPage: true })

/** The estimate id with the fee it quotes changed to `fee`, its signature kept. */
const withFee = (id: string, fee: number): string => {
  const [payload, signature] = id.slice("est_".length).split(".")
  const fields = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Array<unknown>
  // [version, account, livemode, amount, currency, region, fee, card, expiresAt, nonce]
  expect(fields.slice(3, 7)).toStrictEqual([10_000, "usd", "US-NY", 300])
  fields[6] = fee
  return `est_${Buffer.from(JSON.stringify(fields)).toString("base64url")}.${signature}`
}

describe.runIf(installed || ci)("the checkout page in headless Chromium", () => {
  let checkout: Checkout
  let levy: Levy
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let origin: string
  const errors: Array<string> = []
  const offOrigin: Array<string> = []

  const watch = (p: Page) => {
    p.setDefaultTimeout(WAIT)
    p.on("pageerror", (error) => {
      errors.push(error.message)
    })
    // CSP violations are console errors; a refused payment (4xx) is the page's to show
    p.on("console", (message) => {
      if (message.type() === "error" && !/status of 4\d\d/.test(message.text()))
        errors.push(message.text())
    })
  }

  beforeAll(async () => {
    if (!installed) return
    checkout = await startCheckout()
    origin = new URL(checkout.url).origin
    levy = new Levy(checkout.levy.secretKey, { baseUrl: checkout.levy.url })
    mkdirSync(ARTIFACTS, { recursive: true })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
    })
    context = await browser.newContext({ viewport: { width: 800, height: 900 } })
    // With Levy in-process the page needs nothing but its own origin.
    await context.route(
      (url) => url.origin !== origin,
      (route) => {
        offOrigin.push(route.request().url())
        return route.abort()
      }
    )
    page = await context.newPage()
    watch(page)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await checkout?.close()
  })

  const open = async (p: Page = page) => {
    await p.goto(`${checkout.url}/`)
    await expect.poll(() => p.getByTestId("amount").textContent()).toBe("$100.00")
  }

  const pick = async (label: string, fee: string, p: Page = page) => {
    await p.getByLabel(label, { exact: true }).check()
    await expect.poll(() => p.getByTestId("fee").textContent()).toBe(fee)
    await expect.poll(() => p.getByRole("button", { name: /^Pay/ }).isEnabled()).toBe(true)
  }

  const shownQuote = async () => (await page.getByTestId("quote").getAttribute("data-id")) ?? ""

  it("credit shows the fee, debit none, and paying collects exactly the fee shown under the quote shown", async () => {
    expect(installed, `${CHROMIUM} is missing; CI must install it (.ci/run)`).toBe(true)
    await open()
    // no card yet: no fee is shown, and nothing can be paid
    expect(await page.getByTestId("fee").textContent()).toBe("choose a card")
    expect(await page.getByRole("button", { name: "Pay" }).isDisabled()).toBe(true)

    await pick("Visa credit", "$3.00")
    expect(await page.getByTestId("total").textContent()).toBe("$103.00")
    expect(await page.getByTestId("disclosure").textContent()).toBe(
      "Credit card price: $103.00 (includes a 3% card surcharge). Cash/debit price: $100.00."
    )
    expect(await page.getByTestId("card").textContent()).toBe("Quoted for your card: visa · credit")
    const creditQuote = await shownQuote()
    expect(creditQuote).toMatch(/^est_/)
    expect(await page.getByRole("button", { name: "Pay $103.00" }).isEnabled()).toBe(true)
    await shot(page, "credit")

    await pick("Visa debit", "none")
    expect(await page.getByTestId("total").textContent()).toBe("$100.00")
    expect(await page.getByTestId("disclosure").textContent()).toBe("")
    expect(await page.getByTestId("card").textContent()).toBe("Quoted for your card: visa · debit")
    expect(await shownQuote()).not.toBe(creditQuote)
    await shot(page, "debit")

    await pick("Visa credit", "$3.00")
    const quote = await shownQuote()
    const shownFee = Number(await page.getByTestId("fee").getAttribute("data-minor"))
    await page.getByRole("button", { name: "Pay $103.00" }).click()
    await expect.poll(() => page.getByTestId("result").getAttribute("data-charge")).toMatch(/^ch_/)
    const id = (await page.getByTestId("result").getAttribute("data-charge")) ?? ""
    const charge = await levy.charges.retrieve(id)
    expect(charge).toMatchObject({
      status: "succeeded",
      amount: 10_000,
      convenienceFee: shownFee,
      totalAmount: 10_000 + shownFee,
      estimate: quote,
      card: { funding: "credit", network: "visa" }
    })
    expect(shownFee).toBe(300)
    expect(await page.getByTestId("result").textContent()).toBe(
      `Paid $103.00 (card surcharge $3.00). Charge ${id}.`
    )
    // paid: the order is done
    expect(await page.getByRole("button", { name: /^Pay/ }).isDisabled()).toBe(true)
    await shot(page, "paid")
    expect(errors).toStrictEqual([])
    expect(offOrigin).toStrictEqual([])
  }, 60_000)

  it("drops an earlier card's answer that arrives after a later card's", async () => {
    await open()
    // hold the first estimate (the credit card's) until the second (the debit card's) is shown
    let release: () => void = () => undefined
    const held = new Promise<void>((done) => {
      release = done
    })
    let first = true
    await page.route("**/levy/v1/estimates", async (route: Route) => {
      if (!first) return route.continue()
      first = false
      await held
      return route.continue()
    })
    const late = page.waitForResponse(
      (response) =>
        response.url().endsWith("/v1/estimates") &&
        (response.request().postData() ?? "").includes('"tok_visa"')
    )
    await page.getByLabel("Visa credit", { exact: true }).check()
    await pick("Visa debit", "none")
    const debitQuote = await shownQuote()
    release()
    await (await late).finished()
    // let the page run what it does with the late answer, then it still shows the debit quote
    await page.evaluate("new Promise((resolve) => setTimeout(resolve, 0))")
    expect(await page.getByTestId("fee").textContent()).toBe("none")
    expect(await page.getByTestId("total").textContent()).toBe("$100.00")
    expect(await shownQuote()).toBe(debitQuote)
    await page.unroute("**/levy/v1/estimates")
    expect(errors).toStrictEqual([])
  }, 30_000)

  it("refuses a quote altered on its way to the backend, and charges nothing", async () => {
    await open()
    await pick("Visa credit", "$3.00")
    const before = (await levy.charges.list({ limit: 100 })).data.length
    // the shopper's browser lowers the quoted fee to 0.01 before it reaches the backend
    await page.route("**/pay", (route) => {
      const body = JSON.parse(route.request().postData() ?? "{}") as { estimate: string }
      return route.continue({
        postData: JSON.stringify({ ...body, estimate: withFee(body.estimate, 1) })
      })
    })
    await page.getByRole("button", { name: "Pay $103.00" }).click()
    await expect
      .poll(() => page.getByTestId("result").getAttribute("data-code"))
      .toBe("estimate_altered")
    expect(await page.getByRole("alert").textContent()).toMatch(
      /^Not paid: .*\(estimate_altered\)$/
    )
    expect((await levy.charges.list({ limit: 100 })).data.length).toBe(before)
    await shot(page, "altered")
    await page.unroute("**/pay")
  }, 30_000)

  it("quotes and pays against a Levy on another origin (CORS)", async () => {
    const mounted = await Mount.make({ store: { store: "memory" } })
    const other = createServer(mounted.listener)
    await new Promise<void>((ready) => other.listen(0, "127.0.0.1", ready))
    const account = await mounted.createAccount("Another origin")
    const levyUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
    const elsewhere = await startCheckout({
      levy: {
        url: levyUrl,
        secretKey: account.keys.secretDev,
        publishableKey: account.keys.publishableDev
      }
    })
    const p = await browser.newPage()
    try {
      watch(p)
      const estimates: Array<string> = []
      p.on("request", (request) => {
        if (request.url().endsWith("/v1/estimates")) estimates.push(request.url())
      })
      await p.goto(`${elsewhere.url}/`)
      await expect.poll(() => p.getByTestId("amount").textContent()).toBe("$100.00")
      // Mastercard allows more than Visa's 3 %: the configured 2.9 % + 0.30 stands
      await pick("Mastercard credit", "$3.20", p)
      expect(estimates).toContain(`${levyUrl}/v1/estimates`)
      await p.getByRole("button", { name: "Pay $103.20" }).click()
      await expect.poll(() => p.getByTestId("result").getAttribute("data-charge")).toMatch(/^ch_/)
      const id = (await p.getByTestId("result").getAttribute("data-charge")) ?? ""
      const charge = await new Levy(account.keys.secretDev, { baseUrl: levyUrl }).charges.retrieve(
        id
      )
      expect(charge).toMatchObject({ convenienceFee: 320, card: { network: "mastercard" } })
      expect(errors).toStrictEqual([])
    } finally {
      await p.close()
      await elsewhere.close()
      await new Promise<void>((done) => {
        other.close(() => done())
        other.closeAllConnections()
      })
      await mounted.close()
    }
  }, 60_000)
})
