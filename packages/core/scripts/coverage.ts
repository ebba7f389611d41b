/** Rewrites the coverage table of docs/compliance.md from the shipped ruleset (run after a data change). */
import { readFileSync, writeFileSync } from "node:fs"
import * as Coverage from "../src/compliance/Coverage.js"
import { AS_OF, between } from "../src/compliance/CoverageDoc.js"
import * as Ruleset from "../src/compliance/Ruleset.js"

const file = new URL("../../../docs/compliance.md", import.meta.url)
writeFileSync(file, between(readFileSync(file, "utf8"), Coverage.table(Ruleset.DEFAULT, AS_OF)))
console.log(`wrote the coverage table of ${file.pathname}`)
