/**
 * Records of Asia, the Middle East and Africa re-checked for a primary source on 2026-12-02
 * (issue 29, item 3): where one was read, the verdict against its words, quoted beside each
 * expectation. The records' own `sources` carry the URLs.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Ruleset from "../src/compliance/Ruleset.js"
import { on100 } from "./lawCases.js"

const day = "2026-12-02"

/** A record's open-ended version: every version re-checked here is its record's last. */
const current = (code: string) =>
  Ruleset.DEFAULT.rules.find((rule) => rule.code === code && !rule.effectiveUntil)!

describe("IL: the total-price rule on the consumer regulator's own page", () => {
  it("a separate card fee is refused, on credit and debit, disclosed or not", () => {
    // economy.gov.il (ss. 17A-17G): the law requires "הצגת מחיר כולל בלבד" — the total price
    // only, every payment the consumer must pay the business and cannot waive.
    expect(on100("IL", 100, day).reasonCode).toBe("fees_prohibited")
    const disclosedDebit = { cardType: "debit" as const, disclosed: true }
    expect(on100("IL", 1, day, disclosedDebit).reasonCode).toBe("fees_prohibited")
  })

  it("the page is cited as the regulator's, and confidence stays low: it does not speak of card fees", () => {
    const page = current("IL").citations?.find((c) => c.url.includes("economy.gov.il"))
    expect(page?.kind).toBe("regulator")
    expect(page?.quote).toContain("המחיר הכולל הינו סך כל התשלומים")
    expect(current("IL").confidence).toBe("low")
  })
})
