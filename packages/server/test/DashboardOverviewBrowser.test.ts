/**
 * The dashboard's overview in headless Chromium, against a real in-process server: charges made
 * through the API (plain, lowered by a cap, refused where fees are prohibited, declined, in
 * another currency), a refund and a dispute show up in its charts and their figures, in the
 * chosen currency, with the same totals the API's lists give. Screenshot:
 * test-artifacts/dashboard-overview.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Browser from "./DashboardBrowserSupport.js"
import { call, type Running, SECRET, start } from "./support.js"

describe.runIf(Browser.runs("DashboardOverviewBrowser"))(
  "the overview in headless Chromium",
  () => {
    let server: Running
    let browser: Browser.DashboardBrowser

    beforeAll(async () => {
      server = await start({ edge: { test: 100_000, live: 100_000 } })
      browser = await Browser.open(server.url)
      await browser.signIn(SECRET)
    }, 30_000)

    afterAll(async () => {
      await browser?.close()
      await server?.close()
    })

    const charge = async (body: Record<string, unknown>) =>
      (
        await call(server.url, "POST", "/v1/charges", {
          body: { amount: 10_000, currency: "usd", cardType: "credit", ...body }
        })
      ).body as { id: string; convenienceFee: number; error?: { charge: string } }

    it("charts charges, fees, refunds, disputes, regions, card types and adjusted fees", async () => {
      expect(Browser.installed, "Chromium is missing; CI must install it (.ci/run)").toBe(true)
      const { page } = browser
      const plain = await charge({ region: "US-NY" }) // 2.9 % + 0.30 lowered to 3 %: 300
      const colorado = await charge({ region: "US-CO" }) // lowered to Colorado's 2 %: 200
      const connecticut = await charge({ region: "US-CT" }) // fees prohibited: 0
      await charge({ region: "US-NY", source: "tok_chargeDeclined" })
      const disputed = await charge({ source: "tok_chargeDispute" }) // no region: 320
      await charge({ currency: "eur", region: "DE", cardType: "credit", amount: 5_000 })
      const refund = await call(server.url, "POST", "/v1/refunds", {
        body: { charge: plain.id, amount: 5_000 }
      })
      expect(refund.status).toBe(200)
      const fees = [plain, colorado, connecticut, disputed].map((c) => c.convenienceFee)
      expect(fees).toStrictEqual([300, 200, 0, 320])

      await page.getByRole("link", { name: "Overview" }).click()
      const summary = page.getByTestId("overview-summary")
      await expect
        .poll(() => summary.textContent())
        .toBe(
          "4 charges succeeded in USD, 8.20 USD of fees collected, over the last 30 days (UTC)."
        )
      // Six charts, each drawn (Chart.js sized its canvas) with its figures beside it.
      const canvases = page.locator("canvas[data-chart]")
      await expect.poll(() => canvases.count()).toBe(6)
      for (const canvas of await canvases.all()) {
        const box = await canvas.boundingBox()
        expect(box !== null && box.width > 100 && box.height > 100).toBe(true)
      }
      const figures = (id: string) =>
        page.getByTestId(`chart-${id}`).locator("tbody tr").allTextContents()
      const today = new Date().toISOString().slice(0, 10)
      expect((await figures("charges")).at(-1)).toBe(`${today}41`)
      expect((await figures("fees")).at(-1)).toBe(`${today}8.20 USD`)
      expect((await figures("refunds")).at(-1)).toBe(`${today}151.50 USD1`)
      expect(await figures("regions")).toStrictEqual([
        "none3.20 USD",
        "US-NY3.00 USD",
        "US-CO2.00 USD",
        "US-CT0.00 USD"
      ])
      expect(await figures("cards")).toStrictEqual(["credit8.20 USD"])
      expect(await page.getByTestId("chart-adjusted").locator("h2").textContent()).toBe(
        "Fees lowered or refused: 3 of 4 charges (75 %)"
      )
      expect((await figures("adjusted")).sort()).toStrictEqual(
        [
          "fees_prohibited0125 %",
          "network_cap_exceeded1025 %",
          "percentage_over_limit1025 %"
        ].sort()
      )
      await browser.shot("overview")

      // Another currency: its own figures, never summed with USD's.
      await page.getByLabel("Currency").selectOption("eur")
      await page.getByRole("button", { name: "Show" }).click()
      await expect.poll(() => summary.textContent()).toMatch(/^1 charge succeeded in EUR, /)
      expect(browser.errors).toStrictEqual([])
      expect(browser.offOrigin).toStrictEqual([])
    }, 60_000)
  }
)
