/**
 * The dashboard's charges, refunds and disputes in headless Chromium, against a real in-process
 * server: a disputed charge says so (the charge's `disputed`) and lists its disputes; a failed
 * charge shows what was attempted as such; charges' and refunds' metadata is shown; refunds and
 * disputes have their lists; the fee page's matrix tells lowered from forbidden, its limits read
 * in words, its amounts never wrap; places are named; thousands are grouped. Screenshots go to
 * test-artifacts/dashboard-*.png.
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

    const fact = (label: string) =>
      browser.page
        .locator("dt", { hasText: new RegExp(`^${label}$`) })
        .locator("xpath=following-sibling::dd[1]")

    it("a failed charge shows what was attempted as such, collected nothing, no disclosure", async () => {
      const { page } = browser
      const failed = await call(server.url, "POST", "/v1/charges", {
        body: { amount: 10_000, currency: "usd", source: "tok_chargeDeclined", region: "US-NY" }
      })
      expect(failed.status).toBe(402)
      const id = (failed.body as { error: { charge: string } }).error.charge
      await open(id)
      await expect.poll(() => page.getByTestId("collected").textContent()).toBe("0.00 USD")
      expect(await fact("Total attempted").textContent()).toBe("103.00 USD")
      expect(await fact("Total").count()).toBe(0)
      expect(await fact("Convenience fee").count()).toBe(0)
      expect(await page.getByTestId("disclosure").textContent()).toMatch(/^— \(the charge failed/)
      await browser.shot("charge-failed")
    }, 30_000)

    it("shows a charge's metadata and its refunds', and lists refunds and disputes", async () => {
      const { page } = browser
      const made = await charge({ metadata: { order: "1001", gift: "yes" } })
      const refund = await call(server.url, "POST", "/v1/refunds", {
        body: { charge: made.id, amount: 1_000, metadata: { rma: "RMA-7" } }
      })
      expect(refund.status).toBe(200)
      await open(made.id)
      await expect
        .poll(() => page.getByTestId("charge-metadata").locator("li").allTextContents())
        .toStrictEqual(["order: 1001", "gift: yes"])
      await page.getByText("rma: RMA-7").first().waitFor()

      // Refunds: every refund, newest first, with its charge and metadata.
      await page.getByRole("link", { name: "Refunds", exact: true }).click()
      const refundRow = page
        .getByTestId("refunds")
        .locator("tr", { hasText: (refund.body as { id: string }).id })
      await expect.poll(() => refundRow.textContent()).toContain("rma: RMA-7")
      expect(await refundRow.getByRole("link", { name: made.id }).count()).toBe(1)
      await browser.shot("refunds")

      // Disputes: every dispute, filtered by status.
      const won = await charge({ source: "tok_chargeDisputeWon" })
      await page.getByRole("link", { name: "Disputes", exact: true }).click()
      const list = page.getByTestId("disputes-list")
      await list.getByRole("link", { name: won.id }).waitFor()
      await page.getByLabel("Status").selectOption("lost")
      await page.getByRole("button", { name: "Apply" }).click()
      await expect.poll(() => list.getByRole("link", { name: won.id }).count()).toBe(0)
      await expect.poll(() => list.locator("tbody tr").count()).toBeGreaterThan(0)
      await page.getByLabel("Status").selectOption("won")
      await page.getByRole("button", { name: "Apply" }).click()
      await list.getByRole("link", { name: won.id }).waitFor()
      await browser.shot("disputes")
      expect(browser.errors).toStrictEqual([])
    }, 40_000)

    it("the matrix tells lowered from forbidden; places named; limits in words; amounts grouped, unwrapped", async () => {
      const { page } = browser
      await page.goto(`${server.url}/dashboard#/fees`)
      const matrix = page.getByTestId("compliance-matrix")
      // 2.9 % over Colorado's 2 %: a charge collects the fee lowered to the cap.
      await expect
        .poll(() => matrix.locator('[data-cell="US-CO credit"]').textContent())
        .toBe("lowered")
      expect(await matrix.locator('[data-cell="US-CO credit"]').getAttribute("title")).toMatch(
        /^percentage_over_limit/
      )
      expect(await matrix.locator('[data-cell="US-NY credit"]').textContent()).toBe("allowed")
      // Connecticut forbids any fee; US debit cards take none.
      expect(await matrix.locator('[data-cell="US-CT credit"]').textContent()).toBe("not allowed")
      expect(await matrix.locator('[data-cell="US-NY debit"]').textContent()).toBe("not allowed")
      expect(await page.getByTestId("amount-limits").textContent()).toBe(
        "at least 50 (0.50 USD); no maximum (minor units of the currency charged)"
      )
      expect(await page.getByTestId("fee-limits").textContent()).toBe(
        "no minimum; no maximum (minor units of the currency charged)"
      )
      // The preview's amounts never wrap (one line each, even at phone width).
      await page.setViewportSize({ width: 390, height: 844 })
      const cells = page.getByTestId("fee-preview-draft").locator(".fee, .nowrap")
      await expect.poll(() => cells.count()).toBeGreaterThan(0)
      for (const cell of await cells.all()) {
        const lines = await cell.evaluate((e) => {
          const { getComputedStyle } = globalThis as unknown as {
            getComputedStyle: (e: unknown) => { lineHeight: string }
          }
          const height = (
            e as { getBoundingClientRect: () => { height: number } }
          ).getBoundingClientRect().height
          return Math.round(height / Number.parseFloat(getComputedStyle(e).lineHeight))
        })
        expect(lines).toBe(1)
      }
      await browser.shot("fees-phone")
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.getByLabel("Filter by country or region").fill("US-N")
      await browser.shot("fees-matrix")

      // Compliance: the Name column names the place, countries too.
      await page.goto(`${server.url}/dashboard#/compliance`)
      await page.getByLabel("Search").fill("Germany")
      const de = page.locator("tr", { has: page.getByRole("cell", { name: "DE", exact: true }) })
      await expect.poll(() => de.getByTestId("region-name").textContent()).toBe("Germany")
      await page.getByLabel("Search").fill("US-NY")
      const ny = page.locator("tr", { has: page.getByRole("cell", { name: "US-NY", exact: true }) })
      await expect.poll(() => ny.getByTestId("region-name").textContent()).toBe("New York")
      await page.getByLabel("Search").fill("")
      await browser.shot("compliance-names")

      // Thousands are grouped.
      const large = await charge({ amount: 1_234_567 })
      await open(large.id)
      await expect.poll(() => fact("Amount").textContent()).toBe("12,345.67 USD")
      expect(browser.errors).toStrictEqual([])
    }, 40_000)
  }
)
