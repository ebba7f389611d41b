/**
 * What the dataset says in its `restrictions` prose, written down as data. Each entry
 * quotes the words it encodes, so a reviewer can check the law against the text.
 */
import type { CardType, Rule, RuleStatus, Terms } from "./Rule.js"

/** The dataset's thirteen status words, normalised. */
export const STATUS: Readonly<Record<string, RuleStatus>> = {
  permitted: "permitted",
  permitted_with_state_cap: "permitted",
  permitted_cost_capped: "permitted",
  permitted_with_network_cap: "permitted",
  permitted_card_not_present: "permitted",
  permitted_cost_capped_pending_change: "permitted",
  network_rule: "permitted",
  prohibited: "prohibited",
  // Consumer cards are banned; business cards are handled by `business` terms below.
  prohibited_consumer_cards: "permitted",
  prohibited_consumer: "permitted",
  uncertain: "uncertain",
  // US-CA: "CONSERVATIVE DEFAULT: do not add a card fee at checkout unless the displayed
  // price already includes it" and "not settled in the sources read".
  restricted_all_in_pricing: "uncertain",
  // NZ-INSTORE: "Whether the bill received Royal assent was NOT verified".
  prohibited_if_enacted: "uncertain"
}

/** Statuses whose ban covers consumer cardholders only (PSD2 Art. 62(4); UK reg. 6A). */
export const CONSUMER_BAN = new Set(["prohibited_consumer_cards", "prohibited_consumer"])

/** Statuses whose `maxPercentage` is the networks' cap, not the law's (Canada: "networks' mandated maximum (2.4%)"). */
export const NETWORK_CAPPED = new Set(["permitted_with_network_cap"])

/** Currency of each country's rules (`maxFlatFee` is in it). */
export const CURRENCY: Readonly<Record<string, string>> = {
  US: "usd",
  CA: "cad",
  EU: "eur",
  DE: "eur",
  FR: "eur",
  NL: "eur",
  IE: "eur",
  ES: "eur",
  IT: "eur",
  DK: "dkk",
  NO: "nok",
  GB: "gbp",
  AU: "aud",
  NZ: "nzd",
  MY: "myr"
}

const ALL_CARDS: ReadonlyArray<CardType> = ["credit", "debit", "prepaid"]

/** Per-code changes to a normalised record. */
export const PATCHES: Readonly<Record<string, Partial<Rule>>> = {
  // "A Visa 'convenience fee' ... applies to all forms of payment in that channel".
  US: { convenienceFee: { cardTypes: ALL_CARDS } },
  // § 604A.002 "separately bans surcharges on DEBIT and stored-value cards".
  "US-TX": { convenienceFee: { cardTypes: ["credit"] } },
  // "NO surcharge on cash, check, debit card (PIN or not) or gift-card redemption".
  "US-CO": { convenienceFee: { cardTypes: ["credit"] } },
  "US-NETWORK-VISA": { networks: ["visa"], feeTypes: ["surcharge"] },
  "US-NETWORK-MASTERCARD": { networks: ["mastercard"], feeTypes: ["surcharge"] },
  // "Discover — not greater than the cost of acceptance": the record's own terms.
  "US-NETWORK-DISCOVER-AMEX": { networks: ["discover"], feeTypes: ["surcharge"] },
  // "(7) flat or fixed amount ... (maxPercentage=0 encodes 'no percentage')", "(2) card-absent
  // transactions only", "(10) not on recurring or instalment transactions", and "(1) bona fide
  // convenience of an alternative payment channel outside the merchant's customary channels",
  // "(3) not if the merchant operates exclusively card-absent": never in its standard channel.
  "US-CONVENIENCE-FEE-VISA": {
    networks: ["visa"],
    feeTypes: ["convenience_fee"],
    cardTypes: ALL_CARDS,
    maxPercentage: null,
    flatOnly: true,
    channels: ["online"],
    recurringAllowed: false,
    standardChannelOnly: true
  },
  // PSD2 Art. 62(3): charges where allowed "shall not exceed the direct costs borne by the payee";
  // "commercial or non-EEA cards = cost-capped only where national law allows".
  EU: { business: { status: "uncertain" } },
  DE: { business: { status: "uncertain" } },
  FR: { business: { status: "uncertain" } },
  NL: { business: { status: "uncertain" } },
  IE: { business: { status: "uncertain" } },
  ES: { business: { status: "uncertain" } },
  IT: { business: { status: "uncertain" } },
  // "surcharging is legally permitted here ... for ... business cards ... equal to the fee applied".
  DK: { business: { status: "permitted" } },
  NO: { business: { status: "permitted" } },
  // "B2B/commercial payments: surcharge allowed but limited to the cost of the payment method".
  GB: { business: { status: "permitted" } },
  // "surcharges allowed on designated card systems (eftpos, Mastercard and Visa credit/debit/prepaid)".
  AU: { cardTypes: ALL_CARDS },
  // "Keep surcharges at or below cost."
  NZ: { costOfAcceptanceCap: true },
  // Prohibited in store if enacted: a channel rule on top of NZ's law. Its caps and card types
  // (none, 0) are the ban as enacted, but "Whether the bill received Royal assent was NOT
  // verified": the rule is uncertain, so it blocks through its status alone, and an account that
  // opts in (allowUncertain) is under NZ's own law, not a ban nobody has confirmed.
  "NZ-INSTORE": {
    kind: "channel",
    channel: "in_person",
    feeTypes: ["surcharge", "convenience_fee"],
    cardTypes: ALL_CARDS,
    maxPercentage: null,
    maxFlatFee: null
  }
}

/** Codes that are not places: card-network or channel rules applied on top of a place's law. */
export const NOT_PLACES = new Set([
  "US-NETWORK-VISA",
  "US-NETWORK-MASTERCARD",
  "US-NETWORK-DISCOVER-AMEX",
  "US-CONVENIENCE-FEE-VISA",
  "NZ-INSTORE"
])

/** Earlier or later versions of a code that the prose states, as changes to that code's record. */
export const VERSIONS: ReadonlyArray<{ readonly code: string; readonly patch: Partial<Rule> }> = [
  // "lower of the merchant discount rate ... or 3% (reduced from 4% effective 2023-04-15)".
  { code: "US-NETWORK-VISA", patch: { effectiveFrom: "2013-01-27", maxPercentage: 4 } },
  // "Before 2025-11-01 the statute banned surcharges".
  {
    code: "US-OK",
    patch: {
      effectiveFrom: null,
      status: "prohibited",
      cardTypes: [],
      maxPercentage: 0,
      confidence: "medium"
    }
  },
  // "PENDING ... Treat as subject to change on 2026-07-01" and the outcome "was NOT found".
  { code: "AU", patch: { effectiveFrom: "2026-07-01", status: "uncertain" } }
]

/**
 * Rules the prose of one record states for a part of it, as a new code cloned from that record.
 * "American Express — must equal the cap of other card brands processed": with no brand named,
 * the strictest other US brand's cap binds (Visa, 3 %).
 */
export const DERIVED: ReadonlyArray<{ readonly from: string; readonly patch: Partial<Rule> }> = [
  {
    from: "US-NETWORK-DISCOVER-AMEX",
    patch: { code: "US-NETWORK-AMEX", networks: ["amex"], maxPercentage: 3 }
  }
]

/**
 * Network rules the dataset folds into a place record: Canada's "lesser of the networks'
 * mandated maximum (2.4%) and the merchant's average merchant discount rate".
 */
export const NETWORK_RULES_FROM_PLACES: ReadonlyArray<{
  readonly from: string
  readonly code: string
  readonly networks: ReadonlyArray<string>
}> = [{ from: "CA", code: "CA-NETWORK-VISA-MASTERCARD", networks: ["visa", "mastercard"] }]

/** Terms of the business cardholder where consumers are banned: all cards, at cost. */
export const BUSINESS_TERMS: Partial<Terms> = {
  cardTypes: ALL_CARDS,
  cardholders: ["consumer", "business"],
  costOfAcceptanceCap: true
}
