/**
 * The client as a browser app ships it: `entry` (which imports @levy/client) bundled by esbuild
 * for the browser, minified, then gzipped. The consumer test checks the installed package
 * against the budget; `pnpm bench` reports the workspace's.
 */
import { gzipSync } from "node:zlib"
import * as esbuild from "esbuild"

/** The most the minified and gzipped bundle of BROWSER_ENTRY may weigh, bytes. */
export const BUDGET_GZIPPED_BYTES = 188 * 1024

/** A browser page quoting a fee with a publishable key: what a checkout page imports. */
export const BROWSER_ENTRY = `import { Levy, RateLimitError } from "@levy/client"

const levy = new Levy("pk_dev_example", { baseUrl: location.origin })
levy.estimates
  .create({ amount: 10000, currency: "usd", region: "US-FL", cardType: "credit" })
  .then((estimate) => console.log(estimate.totalAmount))
  .catch((error) => console.error(error instanceof RateLimitError ? "slow down" : error))
`

export interface Size {
  readonly minifiedBytes: number
  readonly gzippedBytes: number
}

/** Bundles `contents` as if it were a file in `resolveDir` (where @levy/client resolves from). */
export const measure = async (contents: string, resolveDir: string): Promise<Size> => {
  const result = await esbuild.build({
    stdin: { contents, resolveDir, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    legalComments: "none",
    logLevel: "silent"
  })
  const code = result.outputFiles[0]?.contents ?? new Uint8Array()
  return { minifiedBytes: code.byteLength, gzippedBytes: gzipSync(code, { level: 9 }).byteLength }
}
