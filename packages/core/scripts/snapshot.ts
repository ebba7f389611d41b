/**
 * Release step of @levy/rules: writes `versions/<version>.json`, the snapshot of the ruleset
 * this checkout builds, with the version's CHANGELOG entry (`npx -y pnpm@10 rules:snapshot`
 * then rewrites the modules that import the snapshots). Refuses when the version has no
 * entry, or was released with other rules.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { Snapshot } from "@levy/rules/versions"
import { Either } from "effect"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as RulesetVersions from "../src/compliance/RulesetVersions.js"

const rules = new URL("../../rules/", import.meta.url)
const file = new URL(`versions/${Ruleset.DEFAULT.version}.json`, rules)
const changelog = readFileSync(new URL("CHANGELOG.md", rules), "utf8")
const existing = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined
const snapshot = RulesetVersions.snapshotOf(Ruleset.DEFAULT, changelog, existing)
if (Either.isLeft(snapshot)) {
  console.error(snapshot.left)
  process.exit(1)
}
writeFileSync(file, Snapshot.render(snapshot.right))
console.log(`wrote ${file.pathname}`)
