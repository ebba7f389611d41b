/**
 * Every research record in `research/` validates against the format both engineers agreed on
 * (docs/compliance.md, "Research records"), and the module that imports them lists them all:
 * a record that does not validate fails the build here, loudly, with every reason.
 */
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as Research from "../src/Research.js"
import { render } from "../src/ResearchIndex.js"

const dir = new URL("../research/", import.meta.url)
const names = readdirSync(dir).filter((name) => name.endsWith(".json"))
const isRecordOrKeep = (name: string) => name.endsWith(".json") || name === ".gitkeep"

describe("research records", () => {
  it("research/ holds only JSON records", () => {
    expect(readdirSync(dir).filter((name) => !isRecordOrKeep(name))).toEqual([])
  })

  it("src/researchFiles.ts imports every record (else run `npx -y pnpm@10 rules:index`)", () => {
    const written = readFileSync(new URL("../src/researchFiles.ts", import.meta.url), "utf8")
    expect(written).toBe(render(readdirSync(dir)))
  })

  it.each(names)("%s validates", (name) => {
    const json: unknown = JSON.parse(readFileSync(new URL(name, dir), "utf8"))
    const decoded = Research.decode(json, name.slice(0, -".json".length))
    if (Either.isLeft(decoded)) throw new Error(`research/${name} is invalid:\n${decoded.left}`)
    expect(decoded.right.versions.every((v) => v.sources.length > 0)).toBe(true)
  })
})

/** A minimal valid record, to break one thing at a time. */
const valid = {
  code: "SE",
  kind: "place",
  name: "Sweden",
  currency: "sek",
  checkedOn: "2026-11-24",
  versions: [
    {
      effectiveFrom: "1900-01-01",
      effectiveUntil: "2018-01-13",
      confidence: "low",
      rules: [
        {
          scope: {},
          status: "uncertain",
          limit: null,
          alternatives: null,
          standardChannelOnly: false,
          requiresDisclosure: false,
          notes: "before PSD2"
        }
      ],
      sources: [
        { url: "https://example.org/a", title: "A", kind: "secondary", quote: "a passage" }
      ],
      notes: ""
    },
    {
      effectiveFrom: "2018-01-13",
      effectiveUntil: null,
      confidence: "high",
      rules: [
        {
          scope: { cardCategories: ["consumer"] },
          status: "prohibited",
          limit: null,
          alternatives: null,
          standardChannelOnly: false,
          requiresDisclosure: true,
          notes: "PSD2 Art. 62(4)"
        }
      ],
      sources: [{ url: "https://example.org/b", title: "B", kind: "statute", quote: "no charges" }],
      notes: ""
    }
  ]
}

type Json = { [key: string]: unknown }
const edit = (change: (record: Json & typeof valid) => void): unknown => {
  const copy = structuredClone(valid) as Json & typeof valid
  change(copy)
  return copy
}
const reasons = (json: unknown, file = "SE"): string =>
  Either.match(Research.decode(json, file), { onLeft: (e) => e, onRight: () => "" })

describe("the validator refuses", () => {
  it("accepts the valid record", () => {
    expect(reasons(valid)).toBe("")
  })

  it("a gap between versions", () => {
    const json = edit((r) => {
      r.versions[0]!.effectiveUntil = "2018-01-12"
    })
    expect(reasons(json)).toContain("must equal the next version's effectiveFrom 2018-01-13")
  })

  it("an overlap (a version ending after the next starts)", () => {
    const json = edit((r) => {
      r.versions[0]!.effectiveUntil = "2019-01-01"
    })
    expect(reasons(json)).toContain("must equal the next version's effectiveFrom")
  })

  it("a closed last version", () => {
    const json = edit((r) => {
      ;(r.versions[1] as Json).effectiveUntil = "2030-01-01"
    })
    expect(reasons(json)).toContain("must be open-ended")
  })

  it("a version without sources", () => {
    const json = edit((r) => {
      r.versions[1]!.sources = []
    })
    expect(reasons(json)).toContain("sources")
  })

  it("a percentage as a number, not decimal text", () => {
    const json = edit((r) => {
      ;(r.versions[1]!.rules[0] as Json).limit = {
        maxPercentage: 3,
        maxFlatFee: null,
        costOfAcceptance: false
      }
    })
    expect(reasons(json)).toContain("maxPercentage")
  })

  it("a percentage above 100", () => {
    const json = edit((r) => {
      ;(r.versions[1]!.rules[0] as Json).limit = {
        maxPercentage: "101",
        maxFlatFee: null,
        costOfAcceptance: false
      }
    })
    expect(reasons(json)).toContain("at most 100")
  })

  it("an unknown scheme, status or date", () => {
    expect(
      reasons(
        edit((r) => {
          r.versions[1]!.rules[0]!.scope = { schemes: ["two_party"] } as never
        })
      )
    ).toContain("two_party")
    expect(
      reasons(
        edit((r) => {
          r.versions[1]!.rules[0]!.status = "allowed"
        })
      )
    ).toContain("allowed")
    expect(
      reasons(
        edit((r) => {
          r.versions[1]!.effectiveFrom = "2018-02-30"
        })
      )
    ).toContain("not a calendar date")
  })

  it("an amount range that is not integer minor units, bounds nothing, or is the wrong way round", () => {
    const withAmount = (amount: unknown) =>
      reasons(
        edit((r) => {
          r.versions[1]!.rules[0]!.scope = { amount } as never
        })
      )
    expect(withAmount({ currency: "usd", min: null, max: 1_000_000 })).toBe("")
    expect(withAmount({ currency: "usd", min: null, max: 10_000.5 })).toContain("integer")
    expect(withAmount({ currency: "usd", min: null, max: "10000" })).toContain("max")
    expect(withAmount({ currency: "USD", min: 1, max: null })).toContain("currency")
    expect(withAmount({ currency: "usd", min: null, max: null })).toContain("needs min or max")
    expect(withAmount({ currency: "usd", min: 200, max: 100 })).toContain(
      "min 200 is above max 100"
    )
  })

  it("a network parity flag that is not a boolean", () => {
    const json = edit((r) => {
      ;(r.versions[1]!.rules[0] as Json).networkParity = "yes"
    })
    expect(reasons(json)).toContain("networkParity")
  })

  it("a record whose code is not its file name", () => {
    expect(reasons(valid, "NO")).toContain("is not the file's name NO.json")
  })
})

describe("the sourcing standard (docs/compliance.md, Sourcing standard)", () => {
  const cite = (url: string, kind: string) =>
    edit((r) => {
      r.versions[0]!.sources = [{ url, title: "T", kind, quote: "q" }]
    })

  it("refuses a citation from a host that is no authority, even a subdomain of one", () => {
    expect(reasons(cite("https://es.scribd.com/document/1/x", "secondary"))).toContain(
      "is on scribd.com, no authority (document-sharing site)"
    )
    expect(reasons(cite("https://info.5y1.org/x_1.html", "network"))).toContain("no authority")
  })

  it("refuses a copy of the law labelled as the law: its kind is secondary", () => {
    expect(reasons(cite("https://law.justia.com/codes/utah/x", "statute"))).toContain(
      "its kind is secondary, not statute"
    )
    expect(reasons(cite("https://law.justia.com/codes/utah/x", "secondary"))).toBe("")
  })

  it("refuses a URL with tracking parameters", () => {
    expect(reasons(cite("https://example.org/a?utm_source=x&id=2", "secondary"))).toContain(
      "tracking parameters (utm_source)"
    )
    expect(reasons(cite("https://example.org/a?6fd42e10_page=3", "secondary"))).toContain(
      "6fd42e10_page"
    )
    expect(reasons(cite("https://example.org/a?id=2", "secondary"))).toBe("")
  })

  it("refuses a version in force when checked that rests on secondary sources only, unless low", () => {
    const secondaryOnly = (confidence: string, until: string | null) =>
      edit((r) => {
        const last = r.versions[1] as Json
        last.sources = [{ url: "https://example.org/b", title: "B", kind: "secondary", quote: "q" }]
        last.confidence = confidence
        r.checkedOn = until ?? r.checkedOn
      })
    expect(reasons(secondaryOnly("high", null))).toContain(
      "versions[1] (2018-01-13): in force on 2026-11-24 without a primary source, so its confidence must be low"
    )
    expect(reasons(secondaryOnly("medium", null))).toContain("without a primary source")
    expect(reasons(secondaryOnly("low", null))).toBe("")
    // A past version (ended before the record was checked) is history, not today's rule.
    expect(reasons(edit((r) => (r.versions[0]!.confidence = "high")))).toBe("")
  })

  it("does not count a copy labelled statute as the primary source", () => {
    const copy = edit((r) => {
      r.versions[1]!.sources = [
        { url: "https://casetext.com/statute/x", title: "B", kind: "secondary", quote: "q" }
      ]
    })
    expect(reasons(copy)).toContain("without a primary source")
  })
})

describe("the terms of a card network's convenience fee", () => {
  const rule = (json: unknown) => {
    const decoded = Research.decode(json, "SE")
    if (Either.isLeft(decoded)) throw new Error(decoded.left)
    return decoded.right.versions[1]!.rules[0]!
  }

  it("absent, a fee may be charged in any channel, need not be flat, and may recur", () => {
    const read = rule(valid)
    expect(read.allowedChannels).toBeUndefined()
    expect(read.flatOnly).toBe(false)
    expect(read.recurringAllowed).toBe(true)
  })

  it("are read when given: card-absent only, flat only, not on recurring payments", () => {
    const read = rule(
      edit((r) => {
        Object.assign(r.versions[1]!.rules[0]!, {
          allowedChannels: ["online"],
          flatOnly: true,
          recurringAllowed: false
        })
      })
    )
    expect(read.allowedChannels).toEqual(["online"])
    expect(read.flatOnly).toBe(true)
    expect(read.recurringAllowed).toBe(false)
  })

  it("refuses no allowed channel, an unknown channel, or a flag that is not a boolean", () => {
    const withTerms = (terms: Json) =>
      edit((r) => {
        Object.assign(r.versions[1]!.rules[0]!, terms)
      })
    expect(reasons(withTerms({ allowedChannels: [] }))).toContain("allowedChannels")
    expect(reasons(withTerms({ allowedChannels: ["phone"] }))).toContain("phone")
    expect(reasons(withTerms({ flatOnly: "yes" }))).toContain("flatOnly")
    expect(reasons(withTerms({ recurringAllowed: 0 }))).toContain("recurringAllowed")
  })
})
