/**
 * The released versions kept in `versions/`: each a valid snapshot named by its version,
 * carrying its CHANGELOG entry word for word; every CHANGELOG version has one; the module
 * that imports them lists them all. The CHANGELOG reader is tested on its own.
 */
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import pkg from "../package.json" with { type: "json" }
import * as Changelog from "../src/Changelog.js"
import { render, VERSIONS } from "../src/ResearchIndex.js"
import * as Snapshot from "../src/Snapshot.js"

const dir = new URL("../versions/", import.meta.url)
const names = readdirSync(dir).filter((name) => name.endsWith(".json"))
const changelog = Changelog.parse(readFileSync(new URL("../CHANGELOG.md", import.meta.url), "utf8"))

describe("released versions", () => {
  it("src/versionFiles.ts imports every snapshot (else run `npx -y pnpm@10 rules:snapshot`)", () => {
    const written = readFileSync(new URL("../src/versionFiles.ts", import.meta.url), "utf8")
    expect(written).toBe(render(readdirSync(dir), VERSIONS))
  })

  it("every CHANGELOG version, the package's own included, has its snapshot", () => {
    expect(changelog.map((e) => e.version)).toContain(pkg.version)
    expect(names.sort()).toEqual(changelog.map((e) => `${e.version}.json`).sort())
  })

  it.each(names)("%s is a snapshot of its version with its CHANGELOG entry", (name) => {
    const snapshot = Snapshot.decode(JSON.parse(readFileSync(new URL(name, dir), "utf8")))
    if (Either.isLeft(snapshot)) throw new Error(`versions/${name} is invalid: ${snapshot.left}`)
    const { version, released, changes, rules } = snapshot.right
    expect(`${version}.json`).toBe(name)
    expect({ version, released, changes }).toEqual(changelog.find((e) => e.version === version))
    expect(rules.length).toBeGreaterThan(0)
  })
})

describe("Changelog.parse", () => {
  const text = [
    "# changelog",
    "",
    "Preamble - not an entry.",
    "",
    "## 2.0.0 — 2027-01-02",
    "",
    "- SE: a ban from 2027-02-01. Source:",
    "  the statute.",
    "- FI: unchanged wording",
    "",
    "## Unreleased",
    "",
    "- not a release",
    "",
    "## 1.0.0 — 2026-11-24",
    "- All: the first."
  ].join("\n")

  it("reads each release's date and bullets, wrapped lines joined, newest first", () => {
    expect(Changelog.parse(text)).toEqual([
      {
        version: "2.0.0",
        released: "2027-01-02",
        changes: ["SE: a ban from 2027-02-01. Source: the statute.", "FI: unchanged wording"]
      },
      { version: "1.0.0", released: "2026-11-24", changes: ["All: the first."] }
    ])
  })

  it("has no entry for a version it does not list", () => {
    expect(Changelog.entryOf(text, "1.5.0")).toBeUndefined()
    expect(Changelog.entryOf(text, "1.0.0")?.released).toBe("2026-11-24")
  })
})

describe("Snapshot.compareVersions", () => {
  it("orders by number, not text, and a pre-release before its release", () => {
    const sorted = ["1.10.0", "1.2.0", "2.0.0-rc.1", "1.2.0-beta", "2.0.0", "0.9.9"].sort(
      Snapshot.compareVersions
    )
    expect(sorted).toEqual(["0.9.9", "1.2.0-beta", "1.2.0", "1.10.0", "2.0.0-rc.1", "2.0.0"])
  })
})
