/**
 * What the cited-case tests of the law share: a credit-card surcharge of `fee` minor units on
 * 100.00 in a place on a date, judged by the default ruleset, and percentages from text.
 */
import { Either } from "effect"
import * as Compliance from "../src/compliance/Compliance.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Rate from "../src/Rate.js"

/** A percentage from its decimal text. */
export const pct = Rate.percent

/** The day the law was last re-checked. */
export const today = "2026-11-24"

/** The verdict on a credit-card surcharge of `fee` minor units on 100.00 in `region` on `date`. */
export const on100 = (
  region: string,
  fee: number,
  date: string,
  more: Partial<Compliance.ComplianceInput> = {}
) =>
  Either.getOrThrow(
    Compliance.check(Ruleset.DEFAULT, {
      region,
      cardType: "credit",
      amount: 10_000,
      fee,
      flatPart: 0,
      percentage: Rate.ZERO_PERCENT,
      flatFee: Rate.NO_FLAT_FEE,
      date,
      ...more
    })
  )
