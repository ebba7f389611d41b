/**
 * `pnpm bench clientBundle`: the browser bundle of @levy/client (BROWSER_ENTRY, the workspace's
 * source), minified and gzipped, against its budget. The consumer test checks the same entry
 * over the published package.
 */
import { report } from "../../../scripts/benchmark.js"
import { BROWSER_ENTRY, BUDGET_GZIPPED_BYTES, measure } from "../src/ClientBundle.js"

const size = await measure(BROWSER_ENTRY, new URL("..", import.meta.url).pathname)
report("client-bundle", {
  minifiedBytes: size.minifiedBytes,
  gzippedBytes: size.gzippedBytes,
  budgetGzippedBytes: BUDGET_GZIPPED_BYTES,
  "gzipped / budget": size.gzippedBytes / BUDGET_GZIPPED_BYTES
})
