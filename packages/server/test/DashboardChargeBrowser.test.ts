/**
 * The dashboard's charge page in headless Chromium, against a real in-process server: a
 * disputed charge says so (the charge's `disputed`) and lists its disputes with their status.
 * Screenshots go to test-artifacts/dashboard-charge-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Browser from "./DashboardBrowserSupport.js"
import { call, type Running, SECRET, start } from "./support.js"

describe.runIf(Browser.runs("DashboardChargeBrowser"))(
  "the charge page in headless Chromium",
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

    const charge = async (body: Record<string, unknown>) => {
      const made = await call(server.url, "POST", "/v1/charges", {
        body: { amount: 10_000, currency: "usd", ...body }
      })
      return made.body as { id: string; disputed: boolean }
    }

    const open = async (id: string) => {
      await browser.page.goto(`${server.url}/dashboard#/charges/${id}`)
      await browser.page.getByRole("heading", { name: "Fee breakdown" }).waitFor()
    }

    it("a disputed charge says so and lists its disputes; an undisputed one does not", async () => {
      expect(Browser.installed, "Chromium is missing; CI must install it (.ci/run)").toBe(true)
      const { page } = browser
      const lost = await charge({ source: "tok_chargeDisputeLost" })
      expect(lost.disputed).toBe(true)
      const listed = await call(server.url, "GET", `/v1/disputes?charge=${lost.id}`)
      const [dispute] = (listed.body as { data: Array<{ id: string }> }).data
      await open(lost.id)
      await expect.poll(() => page.getByTestId("disputed").textContent()).toBe("disputed")
      const rows = page.getByTestId("disputes").locator("tbody tr")
      await expect.poll(() => rows.count()).toBe(1)
      expect(await rows.first().textContent()).toContain(dispute?.id)
      expect(await rows.first().locator("td").last().textContent()).toBe("lost")
      // The API would refuse its refund: the page offers none, and says why.
      expect(await page.getByRole("button", { name: "Refund", exact: true }).count()).toBe(0)
      await page.getByText("No refund: the dispute was lost").waitFor()
      await browser.shot("charge-disputed")

      const plain = await charge({ source: "tok_visa" })
      await open(plain.id)
      await expect.poll(() => page.getByTestId("disputed").textContent()).toBe("no")
      expect(await page.getByTestId("disputes").count()).toBe(0)
      expect(await page.getByRole("button", { name: "Refund", exact: true }).count()).toBe(1)

      // The list marks it too.
      await page.goto(`${server.url}/dashboard#/charges`)
      const row = page.locator("tr", { has: page.getByRole("link", { name: lost.id }) })
      await expect.poll(() => row.locator(".badge").allTextContents()).toContain("disputed")
      expect(browser.errors).toStrictEqual([])
      expect(browser.offOrigin).toStrictEqual([])
    }, 40_000)
  }
)
