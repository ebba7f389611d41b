/** `pnpm bench`: runs every packages/<name>/bench/*.bench.ts in its own process, one after another. */
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { join } from "node:path"

const root = process.cwd()
const files = readdirSync(join(root, "packages")).flatMap((pkg) => {
  const dir = join(root, "packages", pkg, "bench")
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".bench.ts"))
      .map((f) => join(dir, f))
  } catch {
    return []
  }
})
const only = process.argv[2]
let failed = 0
for (const file of files.filter((f) => only === undefined || f.includes(only))) {
  console.log(`\n▶ ${file.slice(root.length + 1)}`)
  const run = spawnSync(process.execPath, ["--import", "tsx", file], {
    stdio: "inherit",
    cwd: root
  })
  if (run.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
