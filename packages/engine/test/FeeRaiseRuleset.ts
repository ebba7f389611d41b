/**
 * A small ruleset for the FeeRaise properties: few places, so the oracle can try their contexts,
 * yet every way a rule reaches a fee: rate and flat caps, a flat-only convenience fee, card
 * types, cardholders, disclosure, recurring payments, legal uncertainty, a cost-of-acceptance
 * cap, a network rule, clauses scoped by scheme, issuing and merchant category, and a version
 * that takes effect in the future.
 */
import { ComplianceRules, type Rule, Ruleset } from "@levy/core"
import { type Context, Effect } from "effect"

type Terms = Omit<
  Rule.Rule,
  | "code"
  | "kind"
  | "country"
  | "state"
  | "currency"
  | "networks"
  | "feeTypes"
  | "channel"
  | "business"
  | "convenienceFee"
  | "effectiveFrom"
  | "sourceStatus"
  | "restrictions"
  | "disclosureText"
  | "sources"
  | "confidence"
  | "currentAsOf"
>

const TERMS: Terms = {
  status: "permitted",
  cardTypes: ["credit", "debit", "prepaid"],
  cardholders: ["consumer", "business"],
  channels: ["online", "in_person"],
  maxPercentage: null,
  maxFlatFee: null,
  costOfAcceptanceCap: false,
  flatOnly: false,
  recurringAllowed: true,
  requiresDisclosure: false
}

const rule = (code: string, fields: Partial<Rule.Rule>): Rule.Rule => ({
  ...TERMS,
  code,
  kind: "place",
  country: code.slice(0, 2),
  state: null,
  currency: "usd",
  networks: [],
  feeTypes: ["surcharge", "convenience_fee"],
  channel: null,
  business: null,
  convenienceFee: null,
  effectiveFrom: null,
  sourceStatus: "test",
  restrictions: "",
  disclosureText: null,
  sources: [],
  confidence: "high",
  currentAsOf: null,
  ...fields
})

export const RULES: ReadonlyArray<Rule.Rule> = [
  // Caps, disclosure, card types, recurring; a convenience fee must be flat and at most 1.00.
  rule("AA", {
    maxPercentage: 3,
    maxFlatFee: 0.5,
    requiresDisclosure: true,
    cardTypes: ["credit", "debit"],
    recurringAllowed: false,
    convenienceFee: { flatOnly: true, maxFlatFee: 1 }
  }),
  rule("AA-NETWORK-VISA", {
    kind: "network",
    country: "AA",
    networks: ["visa"],
    feeTypes: ["surcharge"],
    maxPercentage: 2.5
  }),
  // Uncertain law, capped at the cost of acceptance.
  rule("BB", { status: "uncertain", maxPercentage: 2, costOfAcceptanceCap: true }),
  // Consumers only; a lower cap from a date in the future.
  rule("CC", { cardholders: ["consumer"], maxPercentage: 4, maxFlatFee: 0.2 }),
  rule("CC", {
    cardholders: ["consumer"],
    maxPercentage: 1,
    maxFlatFee: 0.2,
    effectiveFrom: "2099-01-01"
  }),
  // Clauses by scheme and issuing: uncapped only for a four-party card issued at home.
  rule("DD", {
    clauses: [
      // By the account's merchant category (listed first, they win ties): a sector's ban in
      // person, and a higher cap than the foreign card's for one kind of merchant.
      {
        scope: { merchantCategories: ["4121"], channels: ["in_person"] },
        terms: { ...TERMS, status: "prohibited" }
      },
      {
        scope: { merchantCategories: ["9311"], schemes: ["four_party"], issuing: ["foreign"] },
        terms: { ...TERMS, maxPercentage: 3 }
      },
      { scope: { schemes: ["four_party"] }, terms: { ...TERMS, maxPercentage: 1.5 } },
      { scope: { schemes: ["four_party"], issuing: ["domestic"] }, terms: TERMS },
      {
        scope: { schemes: ["four_party"], issuing: ["foreign"] },
        terms: { ...TERMS, maxPercentage: 0.5, maxFlatFee: 0.1 }
      },
      { scope: { schemes: ["three_party"] }, terms: { ...TERMS, maxPercentage: 1 } },
      { scope: { schemes: ["national_debit"] }, terms: { ...TERMS, status: "prohibited" } }
    ]
  }),
  // No fee today; uncapped from a day in the future.
  rule("EE", { status: "prohibited" }),
  rule("EE", { effectiveFrom: "2099-01-01" })
]

export const ruleset = Ruleset.make(RULES, "test")
export const rules: Context.Tag.Service<ComplianceRules> = Effect.runSync(
  Effect.provide(ComplianceRules, ComplianceRules.layer(ruleset))
)
