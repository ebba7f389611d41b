/** Rewrites `src/researchFiles.ts` and `src/versionFiles.ts` from `research/` and `versions/` (run after adding a file). */
import { readdirSync, writeFileSync } from "node:fs"
import { RESEARCH, render, type Target, VERSIONS } from "../src/ResearchIndex.js"

const write = (target: Target, module: string) => {
  const dir = new URL(`../${target.folder}/`, import.meta.url)
  const file = new URL(`../src/${module}`, import.meta.url)
  writeFileSync(file, render(readdirSync(dir), target))
  console.log(`wrote ${file.pathname}`)
}

write(RESEARCH, "researchFiles.ts")
write(VERSIONS, "versionFiles.ts")
