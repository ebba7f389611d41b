/**
 * The last step of `pnpm --filter @levy/server build` (after tsc wrote dist/): the dashboard's
 * build is copied to dist/dashboard, so the published package serves `/dashboard` without
 * the private @levy/dashboard package (http/Dashboard.ts looks there first).
 */
import { cpSync, existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const from = fileURLToPath(new URL("../dashboard/dist/", import.meta.url))
const to = fileURLToPath(new URL("dist/dashboard/", import.meta.url))

if (!existsSync(from)) {
  console.error(
    `${from} is missing: build the dashboard first (pnpm --filter @levy/dashboard build)`
  )
  process.exit(1)
}
cpSync(from, to, { recursive: true })
