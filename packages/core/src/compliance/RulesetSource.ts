/**
 * Turns the research dataset into typed rules: status words normalised, prose facts from
 * `RulesetOverlay` applied, network caps folded into place records split out, and the
 * versions the prose states added. Pure data in, rules out.
 */

import type { CardType, Rule, Terms } from "./Rule.js"
import * as Overlay from "./RulesetOverlay.js"
import type { SourceDataset, SourceRecord } from "./SourceRecord.js"

/** Every rule the dataset yields, versions included. */
export const normalise = (dataset: SourceDataset): ReadonlyArray<Rule> => {
  const base = dataset.regions.map(fromRecord)
  const byCode = new Map(base.map((rule) => [rule.code, rule]))
  const versions = Overlay.VERSIONS.flatMap(({ code, patch }) => {
    const rule = byCode.get(code)
    return rule === undefined ? [] : [{ ...rule, ...patch }]
  })
  const derived = Overlay.DERIVED.flatMap(({ from, patch }) => {
    const rule = byCode.get(from)
    return rule === undefined ? [] : [{ ...rule, ...patch }]
  })
  const networks = Overlay.NETWORK_RULES_FROM_PLACES.flatMap(({ from, code, networks }) => {
    const record = dataset.regions.find((r) => r.regionCode === from)
    return record === undefined ? [] : [networkRuleFrom(record, code, networks)]
  })
  return [...base, ...versions, ...derived, ...networks]
}

/** The version of the ruleset built from a dataset generated in `generated` ("2026-11"). */
export const versionOf = (dataset: SourceDataset): string => `${dataset._meta.generated}.1`

const CARD_TYPES: ReadonlyArray<CardType> = ["credit", "debit", "prepaid"]

const fromRecord = (record: SourceRecord): Rule => {
  const consumerBan = Overlay.CONSUMER_BAN.has(record.status)
  const networkCapped = Overlay.NETWORK_CAPPED.has(record.status)
  const { business, ...patch } = Overlay.PATCHES[record.regionCode] ?? {}
  // A state's `allowedCardTypes` (credit only) echo the networks' SURCHARGE rules; a convenience
  // fee "applies to all forms of payment in that channel" (US record), so a subdivision takes its
  // country's convenience-fee terms unless its own law says otherwise (US-CO, US-TX patch theirs).
  const subdivision = record.state !== null && !Overlay.NOT_PLACES.has(record.regionCode)
  const inherited = subdivision ? (Overlay.PATCHES[record.country]?.convenienceFee ?? null) : null
  return {
    code: record.regionCode,
    kind: Overlay.NOT_PLACES.has(record.regionCode) ? "network" : "place",
    country: record.country,
    state: record.state,
    currency: Overlay.CURRENCY[record.country] ?? "",
    status: Overlay.STATUS[record.status] ?? "uncertain",
    cardTypes: CARD_TYPES.filter((t) => record.allowedCardTypes.includes(t)),
    cardholders: consumerBan ? ["business"] : ["consumer", "business"],
    channels: ["online", "in_person"],
    maxPercentage: consumerBan || networkCapped ? null : record.maxPercentage,
    maxFlatFee: consumerBan ? null : record.maxFlatFee,
    costOfAcceptanceCap: record.costOfAcceptanceCap,
    flatOnly: false,
    recurringAllowed: true,
    requiresDisclosure: record.requiresDisclosure,
    networks: [],
    feeTypes: ["surcharge", "convenience_fee"],
    channel: null,
    business: consumerBan ? { ...Overlay.BUSINESS_TERMS, ...business } : (business ?? null),
    convenienceFee: inherited,
    effectiveFrom: record.effectiveFrom,
    sourceStatus: record.status,
    restrictions: record.restrictions,
    disclosureText: record.disclosureText,
    sources: record.sources,
    confidence:
      record.confidence === "high" || record.confidence === "low" ? record.confidence : "medium",
    currentAsOf: record.currentAsOf,
    ...patch
  }
}

const networkRuleFrom = (
  record: SourceRecord,
  code: string,
  networks: ReadonlyArray<string>
): Rule => {
  const terms: Omit<Terms, "disclosureText"> = {
    status: "permitted",
    cardTypes: ["credit"],
    cardholders: ["consumer", "business"],
    channels: ["online", "in_person"],
    maxPercentage: record.networkMaxPercentage,
    maxFlatFee: null,
    costOfAcceptanceCap: true,
    flatOnly: false,
    recurringAllowed: true,
    requiresDisclosure: record.requiresDisclosure
  }
  return {
    ...fromRecord(record),
    ...terms,
    code,
    kind: "network",
    state: null,
    networks,
    business: null,
    sourceStatus: "network_rule"
  }
}
