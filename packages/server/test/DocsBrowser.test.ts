/**
 * The API reference at `GET /docs` in a real browser: headless Chromium (the system's
 * /usr/bin/chromium, driven by playwright-core) renders the Scalar page from the server alone
 * and lists the contract's endpoints. Docs.test.ts checks the HTML; this proves it renders
 * with no network beyond the server (Scalar's script is inlined, fonts off).
 *
 * Without Chromium the test is skipped locally (with a message) and FAILS under CI=true:
 * .ci/run installs it.
 */
import { existsSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Browser, chromium, type Page } from "playwright-core"
import { type Running, start } from "./support.js"

const CHROMIUM = "/usr/bin/chromium"
/** The rendered reference, for a human to look at (test-artifacts/ is gitignored). */
const SCREENSHOT = join(dirname(fileURLToPath(import.meta.url)), "../../../test-artifacts/docs.png")

const installed = existsSync(CHROMIUM)
const ci = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false"
if (!installed && !ci) {
  console.warn(
    `\n*** DocsBrowser skipped: ${CHROMIUM} is missing (apt-get install -y chromium). ` +
      "Under CI=true this test fails instead. ***\n"
  )
}

/** Operation summaries the sidebar must list once their groups are open (from `LevyApi`). */
const SUMMARIES = ["Estimate a fee", "Create a charge", "List events"]

/**
 * Bounds, not timed assertions: the page is ~4 MB of HTML that Scalar parses and renders in
 * ~2 s; the whole test takes ~5 s, more beside the rest of the suite on a 2-core machine.
 */
const RENDER_TIMEOUT = 15_000
const TEST_TIMEOUT = 30_000

/**
 * Opens the sidebar groups (tags) that hold `SUMMARIES`: Scalar opens only the first one.
 * Only these, since each toggle re-renders the ~4 MB page (about a second each here).
 */
const GROUPS = ["charges", "events"]

const openGroups = async (page: Page) => {
  for (const group of GROUPS) {
    await page
      .locator('aside[role="navigation"]')
      .getByRole("button", { name: new RegExp(`^Open Group\\s+${group}$`) })
      .click()
  }
}

describe.runIf(installed || ci)("GET /docs in headless Chromium", () => {
  let server: Running
  let browser: Browser

  beforeAll(async () => {
    // Missing under CI: nothing to launch; the test itself then fails (counted as failed).
    if (!installed) return
    server = await start()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
    })
  }, 20_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    "renders the reference from the server alone and lists the endpoints",
    async () => {
      expect(installed, `${CHROMIUM} is missing; CI must install it (.ci/run)`).toBe(true)
      const origin = new URL(server.url).origin
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      // Every request of the page and its workers, recorded; any off-origin one is also
      // aborted so a machine with internet access behaves like the offline CI machine.
      const requested: Array<string> = []
      context.on("request", (request) => {
        requested.push(request.url())
      })
      await context.route(
        (url) => url.origin !== origin,
        (route) => route.abort()
      )
      const offOrigin = () =>
        requested.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin)
      const page = await context.newPage()
      const errors: Array<string> = []
      page.on("pageerror", (error) => {
        errors.push(error.message)
      })

      const began = performance.now()
      const response = await page.goto(`${server.url}/docs`)
      expect(response?.status()).toBe(200)
      const sidebar = page.locator('aside[role="navigation"]')
      // Rendered: the sidebar shows the first group's operation (Scalar opens it by default).
      await sidebar
        .getByText("Estimate a fee")
        .waitFor({ timeout: RENDER_TIMEOUT })
        .catch((error: unknown) => {
          // A page that needs another host (a CDN script) cannot render offline: name the cause.
          expect(offOrigin(), "requests that left the server").toStrictEqual([])
          throw error
        })
      console.info(`DocsBrowser: /docs rendered in ${Math.round(performance.now() - began)} ms`)

      await openGroups(page)
      // Listed = visible in the sidebar (a collapsed group keeps its entries out of view);
      // a summary may go on ("List events, newest first").
      for (const summary of SUMMARIES) {
        await sidebar.getByText(summary).first().waitFor({ timeout: RENDER_TIMEOUT })
      }

      // Following a sidebar entry shows that operation, with its path, in the content.
      await sidebar.getByText("Create a charge", { exact: true }).click()
      const path = page.locator("main").getByText("/v1/charges", { exact: true }).first()
      await path.waitFor({ timeout: RENDER_TIMEOUT })

      // Scalar's own toolbar (its hosted "Share" and "Generate SDKs") is not on a self-hosted page.
      expect(await page.getByText("Generate SDKs").count()).toBe(0)
      expect(await page.getByRole("button", { name: "Share" }).count()).toBe(0)
      expect(await page.getByText("Developer Tools").count()).toBe(0)

      mkdirSync(dirname(SCREENSHOT), { recursive: true })
      await page.screenshot({ path: SCREENSHOT })
      await context.close()

      expect(errors).toStrictEqual([])
      expect(requested.length).toBeGreaterThan(0)
      expect(offOrigin(), "requests that left the server").toStrictEqual([])
    },
    TEST_TIMEOUT
  )
})
