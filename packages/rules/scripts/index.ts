/** Rewrites `src/researchFiles.ts` from the files in `research/` (run after adding a record). */
import { readdirSync, writeFileSync } from "node:fs"
import { render } from "../src/ResearchIndex.js"

const dir = new URL("../research/", import.meta.url)
const target = new URL("../src/researchFiles.ts", import.meta.url)
writeFileSync(target, render(readdirSync(dir)))
console.log(`wrote ${target.pathname}`)
