/**
 * The changes of the law announced to an account, on the dashboard's fee page, in headless
 * Chromium against a real in-process server: nothing shown while none is announced; once the
 * notices job announces a ban dated ten days ahead in a region the account lists, the page says
 * from when, and shows the law and the account's fee before and after. Screenshot in
 * test-artifacts/dashboard-law-changes.png. Skipped without Chromium locally, failing under CI.
 */
import { existsSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ComplianceRules, Day } from "@levy/core"
import * as RulesetNotices from "@levy/engine/rulesets/RulesetNotices.js"
import { FeeConfigRepository, Tenant } from "@levy/storage"
import { Effect } from "effect"
import { type Browser, chromium, type Page } from "playwright-core"
import { withBan } from "./BannedRule.js"
import { memoryStore, SECRET, startWithStore } from "./support.js"

const CHROMIUM = "/usr/bin/chromium"
const installed = existsSync(CHROMIUM)
const ci = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false"
const WAIT = 15_000
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), "../../../test-artifacts")
const BAN_DATE = Day.toIso(Day.fromMillis(Date.now()) + 10)

describe.runIf(installed || ci)("changes of the law on the dashboard's fee page", () => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  let browser: Browser
  let page: Page
  const errors: Array<string> = []

  beforeAll(async () => {
    if (!installed) return
    server = await startWithStore(memoryStore())
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
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text())
    })
  }, 30_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it("shows the announced change: from when, the law and the fee before and after", async () => {
    expect(installed, `${CHROMIUM} is missing; CI must install it (.ci/run)`).toBe(true)
    await server.store.runPromise(
      Effect.flatMap(FeeConfigRepository, (configs) =>
        configs.initialize(Tenant.make("acct_1", false), { regionCodes: ["US-NY", "GB"] }, 0)
      )
    )
    await page.goto(`${server.url}/dashboard`)
    await page.getByLabel("Secret key").fill(SECRET)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("link", { name: "Fee configuration" }).click()
    await expect.poll(() => page.getByTestId("current-fee").count()).toBe(1)
    expect(await page.getByTestId("law-changes").count()).toBe(0)

    const written = await server.store.runPromise(
      RulesetNotices.runOnce({ leadDays: 30 }).pipe(
        Effect.provide(ComplianceRules.layer(withBan(BAN_DATE)))
      )
    )
    expect(written).toBe(1)
    await page.reload()
    const section = page.getByTestId("law-changes")
    await expect.poll(() => section.count()).toBe(1)
    expect(await section.getByRole("status").textContent()).toBe(
      `From ${BAN_DATE}, the law changes your fee in US-NY.`
    )
    const rows = section.locator("tbody tr")
    expect(await rows.count()).toBe(2)
    const credit = (await rows.nth(0).locator("td").allTextContents()).join(" | ")
    expect(credit).toBe(
      "US-NY | capped at 3 % → prohibited | credit | 10.00 USD: 0.30 USD → 0.00 USD100.00 USD: 3.00 USD → 0.00 USD1,000.00 USD: 29.30 USD → 0.00 USD"
    )
    await page.getByTestId("law-changes").scrollIntoViewIfNeeded()
    await page.screenshot({
      path: join(ARTIFACTS, "dashboard-law-changes.png"),
      fullPage: false
    })
    expect(errors).toEqual([])
  })
})
