/**
 * Builds the dashboard into dist/: one JS bundle and one CSS file with content hashes in their
 * names (the server caches them forever) and index.html naming them (never cached). Runs on
 * `pnpm install` (this package's `prepare`) and `pnpm build`, so `pnpm start` serves it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as esbuild from "esbuild"

const root = dirname(fileURLToPath(import.meta.url))
const dist = join(root, "dist")

const build = async () => {
  rmSync(dist, { recursive: true, force: true })
  mkdirSync(join(dist, "assets"), { recursive: true })
  const result = await esbuild.build({
    entryPoints: { app: join(root, "src/main.ts"), style: join(root, "src/styles.css") },
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    platform: "browser",
    outdir: join(dist, "assets"),
    entryNames: "[name]-[hash]",
    metafile: true,
    legalComments: "none",
    logLevel: "warning"
  })
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path))
  const script = outputs.find((name) => name.startsWith("app-") && name.endsWith(".js"))
  const style = outputs.find((name) => name.startsWith("style-") && name.endsWith(".css"))
  if (script === undefined || style === undefined) throw new Error("esbuild wrote no bundle")
  const html = readFileSync(join(root, "src/index.html"), "utf8")
    .replace("%SCRIPT%", `assets/${script}`)
    .replace("%STYLE%", `assets/${style}`)
  writeFileSync(join(dist, "index.html"), html)
  console.info(`dashboard built: dist/assets/${script}, dist/assets/${style}`)
}

await build()
