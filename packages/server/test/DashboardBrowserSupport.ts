/**
 * Headless Chromium on the dashboard of a running test server, as the dashboard's browser tests
 * drive it: the system's /usr/bin/chromium through playwright-core, every request that would
 * leave the server's origin recorded and aborted, page errors and CSP violations (console
 * errors) collected, dialogs accepted, screenshots to test-artifacts/dashboard-<name>.png.
 *
 * Without Chromium a file using it is skipped locally (`runs` is false, with a message) and
 * FAILS under CI=true: .ci/run installs it.
 */
import { existsSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"

const CHROMIUM = "/usr/bin/chromium"

/** Where screenshots go (gitignored). */
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), "../../../test-artifacts")

/** Whether Chromium is there. */
export const installed = existsSync(CHROMIUM)
const ci = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false"

/** Whether a browser test runs: with Chromium, or under CI (where its absence fails it). */
export const runs = (name: string): boolean => {
  if (!installed && !ci)
    console.warn(
      `\n*** ${name} skipped: ${CHROMIUM} is missing (apt-get install -y chromium). ***\n`
    )
  return installed || ci
}

/** A bound on waiting for the page, not a timed assertion. */
export const WAIT = 15_000

export interface DashboardBrowser {
  readonly browser: Browser
  readonly page: Page
  /** Page errors and console errors (a CSP violation is one) seen so far. */
  readonly errors: Array<string>
  /** Requests that tried to leave the server's origin. */
  readonly offOrigin: Array<string>
  /** A full-page screenshot, test-artifacts/dashboard-<name>.png. */
  readonly shot: (name: string) => Promise<void>
  /** Opens the dashboard and signs in with `key`. */
  readonly signIn: (key: string) => Promise<void>
  readonly close: () => Promise<void>
}

/**
 * Sets the page's waits to `WAIT`, collects its errors into `errors` (page errors, and console
 * errors but the 4xx answers the page shows: a CSP violation is one) and accepts its dialogs.
 */
export const watch = (page: Page, errors: Array<string>): void => {
  page.setDefaultTimeout(WAIT)
  page.on("pageerror", (error) => {
    errors.push(error.message)
  })
  page.on("console", (message) => {
    if (message.type() === "error" && !/status of 4\d\d/.test(message.text()))
      errors.push(message.text())
  })
  page.on("dialog", (dialog) => {
    void dialog.accept()
  })
}

/** Chromium on `serverUrl`'s dashboard, at a desktop viewport. */
export const open = async (serverUrl: string): Promise<DashboardBrowser> => {
  const origin = new URL(serverUrl).origin
  mkdirSync(ARTIFACTS, { recursive: true })
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const errors: Array<string> = []
  const offOrigin: Array<string> = []
  await context.route(
    (url) => url.origin !== origin && !/^(data|blob):/.test(url.protocol),
    (route) => {
      offOrigin.push(route.request().url())
      return route.abort()
    }
  )
  const page = await context.newPage()
  watch(page, errors)
  return {
    browser,
    page,
    errors,
    offOrigin,
    shot: async (name) => {
      await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true })
    },
    signIn: async (key) => {
      await page.goto(`${serverUrl}/dashboard`)
      await page.getByLabel("Secret key").fill(key)
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.getByTestId("mode").waitFor()
    },
    close: () => browser.close()
  }
}
