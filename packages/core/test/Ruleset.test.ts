/**
 * The shipped ruleset against the cited dataset it is built from: nothing the research
 * says is lost on the way into the typed model, and the model refuses malformed rules.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import source from "../data/regions.source.json" with { type: "json" }
import * as Currency from "../src/Currency.js"
import * as RegionInfo from "../src/compliance/RegionInfo.js"
import type { Rule } from "../src/compliance/Rule.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import type { SourceDataset } from "../src/compliance/SourceRecord.js"

const dataset = source as SourceDataset
/**
 * The ruleset of the dataset alone: what these tests check is its normalisation. The shipped
 * ruleset replaces some of its records with research records (test/ResearchRules.test.ts).
 */
const R = Ruleset.fromSource(dataset)
const DAY = "2025-12-01"

const NOT_PLACES = [
  "US-NETWORK-VISA",
  "US-NETWORK-MASTERCARD",
  "US-NETWORK-DISCOVER-AMEX",
  "US-CONVENIENCE-FEE-VISA",
  "NZ-INSTORE"
]

/** The rule a record became: same code, same first day. */
const ruleFor = (code: string, effectiveFrom: string | null): Rule | undefined =>
  R.rules.find((r) => r.code === code && r.effectiveFrom === effectiveFrom)

describe("the dataset", () => {
  it("has 85 records with unique codes, and a warning", () => {
    expect(dataset.regions).toHaveLength(85)
    expect(new Set(dataset.regions.map((r) => r.regionCode)).size).toBe(85)
    expect(dataset._meta.warning).toContain("not legal advice")
  })
})

describe("normalisation keeps what the research says", () => {
  it.each(dataset.regions.map((r) => [r.regionCode, r] as const))("%s", (code, record) => {
    const rule = ruleFor(code, record.effectiveFrom)
    expect(rule).toBeDefined()
    if (rule === undefined) return
    expect(rule.sources).toEqual(record.sources)
    expect(rule.sources.length).toBeGreaterThan(0)
    expect(rule.effectiveFrom).toBe(record.effectiveFrom)
    expect(rule.confidence).toBe(record.confidence)
    expect(rule.restrictions).toBe(record.restrictions)
    expect(rule.disclosureText).toBe(record.disclosureText)
    expect(rule.sourceStatus).toBe(record.status)
    expect(rule.country).toBe(record.country)
    expect(rule.state).toBe(record.state)
    expect(rule.requiresDisclosure).toBe(record.requiresDisclosure)
  })

  it("the thirteen status words normalise to permitted, prohibited or uncertain", () => {
    const expected: Record<string, string> = {
      permitted: "permitted",
      permitted_with_state_cap: "permitted",
      permitted_cost_capped: "permitted",
      permitted_with_network_cap: "permitted",
      permitted_card_not_present: "permitted",
      permitted_cost_capped_pending_change: "permitted",
      network_rule: "permitted",
      prohibited: "prohibited",
      // consumers are excluded through `cardholders`, not the status
      prohibited_consumer_cards: "permitted",
      prohibited_consumer: "permitted",
      uncertain: "uncertain",
      restricted_all_in_pricing: "uncertain",
      prohibited_if_enacted: "uncertain"
    }
    const words = new Set(dataset.regions.map((r) => r.status))
    expect([...words].sort()).toEqual(Object.keys(expected).sort())
    for (const record of dataset.regions) {
      expect(ruleFor(record.regionCode, record.effectiveFrom)?.status).toBe(expected[record.status])
    }
  })

  it("consumer bans (EU/EEA, GB) exclude consumers and carry business terms", () => {
    for (const record of dataset.regions.filter((r) =>
      r.status.startsWith("prohibited_consumer")
    )) {
      const rule = ruleFor(record.regionCode, record.effectiveFrom)!
      expect(rule.cardholders).toEqual(["business"])
      expect(rule.business?.cardholders).toContain("business")
      expect(rule.business?.costOfAcceptanceCap).toBe(true)
    }
  })

  it("prohibited records allow no card type", () => {
    for (const record of dataset.regions.filter((r) => r.status === "prohibited")) {
      const rule = ruleFor(record.regionCode, record.effectiveFrom)!
      expect(rule.status).toBe("prohibited")
      expect(rule.cardTypes).toEqual([])
    }
  })

  it("the versions the prose states are added beside the records", () => {
    // Visa: "reduced from 4% effective 2023-04-15"
    expect(ruleFor("US-NETWORK-VISA", "2023-04-15")?.maxPercentage).toBe(3)
    const before = R.rules.filter(
      (r) => r.code === "US-NETWORK-VISA" && r.effectiveFrom !== "2023-04-15"
    )
    expect(before.map((r) => r.maxPercentage)).toEqual([4])
    // US-OK: "Before 2025-11-01 the statute banned surcharges"
    expect(ruleFor("US-OK", "2025-11-01")?.maxPercentage).toBe(2)
    expect(
      R.rules.filter((r) => r.code === "US-OK" && r.effectiveFrom !== "2025-11-01")[0]?.status
    ).toBe("prohibited")
    // AU: "Treat as subject to change on 2026-07-01"
    expect(ruleFor("AU", "2026-07-01")?.status).toBe("uncertain")
  })

  it("Canada's network cap, folded into the place record, becomes a network rule", () => {
    const ca = ruleFor("CA", "2022-10-06")!
    expect(ca.maxPercentage).toBeNull()
    const networks = R.rules.filter((r) => r.kind === "network" && r.country === "CA")
    expect(networks).toHaveLength(1)
    expect(networks[0]?.maxPercentage).toBe(2.4)
    expect(networks[0]?.networks).toEqual(expect.arrayContaining(["visa", "mastercard"]))
    expect(networks[0]?.sources).toEqual(ca.sources)
  })

  it("every rule's currency is a supported currency", () => {
    for (const rule of R.rules) {
      expect(Currency.lookup(rule.currency), `${rule.code}: ${rule.currency}`).toBeDefined()
    }
    expect(ruleFor("CA", "2022-10-06")?.currency).toBe("cad")
    expect(ruleFor("GB", "2018-01-13")?.currency).toBe("gbp")
    expect(ruleFor("DE", "2018-01-13")?.currency).toBe("eur")
  })

  it("every shipped rule is valid under the rule schema", () => {
    const decoded = Ruleset.decodeRules(JSON.parse(JSON.stringify(R.rules)))
    expect(Either.isRight(decoded)).toBe(true)
  })
})

describe("places and non-places", () => {
  it("the 5 non-place codes are network or channel rules, not places", () => {
    for (const code of NOT_PLACES) {
      expect(R.places.has(code)).toBe(false)
      const rule = R.rules.find((r) => r.code === code)
      expect(rule?.kind).not.toBe("place")
    }
    expect(R.rules.find((r) => r.code === "NZ-INSTORE")?.kind).toBe("channel")
  })

  it("RegionInfo.list returns exactly the 80 places", () => {
    const listed = RegionInfo.list(R, DAY).map((r) => r.regionCode)
    const expected = dataset.regions
      .map((r) => r.regionCode)
      .filter((code) => !NOT_PLACES.includes(code))
    expect(listed).toHaveLength(80)
    expect([...listed].sort()).toEqual([...expected].sort())
    expect(Ruleset.placeCodes(R)).toHaveLength(80)
  })
})

describe("RegionInfo.describe", () => {
  const describeAt = (code: string, date = DAY) => {
    const info = RegionInfo.describe(R, code, date)
    if (info === undefined) throw new Error(`no region ${code}`)
    return info
  }

  it("US-CO: 2 %, credit only, statutory wording, its sources", () => {
    const co = describeAt("US-CO")
    expect(co.maxPercentage).toBe(2)
    expect(co.allowedCardTypes).toEqual(["credit"])
    expect(co.status).toBe("permitted")
    expect(co.state).toBe("Colorado")
    expect(co.effectiveFrom).toBe("2022-07-01")
    expect(co.confidence).toBe("high")
    expect(co.disclosureText).toContain("section 5-2-212")
    expect(co.rulesetVersion).toBe(R.version)
  })

  it("US-CT: 0 and no card types", () => {
    const ct = describeAt("US-CT")
    expect(ct.maxPercentage).toBe(0)
    expect(ct.allowedCardTypes).toEqual([])
    expect(ct.status).toBe("prohibited")
  })

  it("CA: the networks' 2.4 %, credit only", () => {
    const ca = describeAt("CA")
    expect(ca.maxPercentage).toBe(2.4)
    expect(ca.allowedCardTypes).toEqual(["credit"])
  })

  it("a permissive state shows Visa's 3 %; AU shows all card types", () => {
    expect(describeAt("US-FL").maxPercentage).toBe(3)
    expect(describeAt("AU").allowedCardTypes).toEqual(["credit", "debit", "prepaid"])
  })

  it("dated: US-OK prohibited before 2025-11-01; AU uncertain from 2026-07-01", () => {
    expect(describeAt("US-OK", "2025-10-31").maxPercentage).toBe(0)
    expect(describeAt("US-OK", "2025-10-31").status).toBe("prohibited")
    expect(describeAt("US-OK", "2025-11-01").maxPercentage).toBe(2)
    expect(describeAt("AU", "2026-07-01").status).toBe("uncertain")
  })

  it("codes are case-insensitive; unknown codes and non-places are undefined", () => {
    expect(RegionInfo.describe(R, "us-co", DAY)?.regionCode).toBe("US-CO")
    expect(RegionInfo.describe(R, "XX", DAY)).toBeUndefined()
    expect(RegionInfo.describe(R, "US-NETWORK-VISA", DAY)).toBeUndefined()
    expect(RegionInfo.describe(R, "NZ-INSTORE", DAY)).toBeUndefined()
  })
})

describe("Ruleset.decodeRules", () => {
  const good = JSON.parse(JSON.stringify(R.rules.find((r) => r.code === "US-FL"))) as Record<
    string,
    unknown
  >

  it("accepts a well-formed rule", () => {
    const decoded = Ruleset.decodeRules([{ ...good, maxPercentage: 1 }])
    expect(Either.isRight(decoded)).toBe(true)
  })

  const { status: _status, ...withoutStatus } = good
  const malformed: ReadonlyArray<readonly [string, unknown]> = [
    ["not an array", good],
    ["a field missing", [withoutStatus]],
    ["an unknown status", [{ ...good, status: "maybe" }]],
    ["a percentage over 100", [{ ...good, maxPercentage: 150 }]],
    ["a negative percentage", [{ ...good, maxPercentage: -1 }]],
    ["a percentage as text", [{ ...good, maxPercentage: "2" }]],
    ["a negative flat cap", [{ ...good, maxFlatFee: -0.5 }]],
    ["an unknown card type", [{ ...good, cardTypes: ["credit", "amex"] }]],
    ["an unknown cardholder", [{ ...good, cardholders: ["government"] }]],
    ["an unknown channel", [{ ...good, channels: ["phone"] }]],
    ["an unknown kind", [{ ...good, kind: "region" }]],
    ["a lower-case code", [{ ...good, code: "us-fl" }]],
    ["a three-letter country", [{ ...good, code: "USA", country: "USA" }]],
    ["a date in another format", [{ ...good, effectiveFrom: "2025/01/01" }]],
    ["a date that does not exist", [{ ...good, effectiveFrom: "2025-02-30" }]],
    ["an unknown confidence", [{ ...good, confidence: "certain" }]],
    ["sources not strings", [{ ...good, sources: [42] }]],
    ["business terms with an unknown status", [{ ...good, business: { status: "ok" } }]],
    ["null", null]
  ]
  it.each(malformed)("rejects %s", (_name, value) => {
    expect(Either.isLeft(Ruleset.decodeRules(value))).toBe(true)
  })
})

describe("Ruleset.override", () => {
  const fl = R.rules.find((r) => r.code === "US-FL")!

  it("replaces the version with the same code and date, and names the override", () => {
    const custom = Ruleset.override(R, [{ ...fl, maxPercentage: 1 }], "acct_x")
    expect(custom.version).toBe(`${R.version}+acct_x`)
    expect(custom.rules.filter((r) => r.code === "US-FL")).toHaveLength(1)
    expect(custom.rules).toHaveLength(R.rules.length)
    expect(R.rules.find((r) => r.code === "US-FL")?.maxPercentage).toBeNull()
  })

  it("a rule with a new date adds a version; a new code adds a place", () => {
    const custom = Ruleset.override(
      R,
      [
        { ...fl, effectiveFrom: "2030-01-01", status: "prohibited" },
        { ...fl, code: "US-GU", state: "Guam" }
      ],
      "acct_y"
    )
    expect(custom.places.get("US-FL")).toHaveLength(2)
    expect(custom.places.has("US-GU")).toBe(true)
    expect(Ruleset.placeCodes(custom)).toHaveLength(81)
  })
})
