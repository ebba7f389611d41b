/**
 * Research records (`@levy/rules`, `research/<CODE>.json`) as typed rules: one rule per dated
 * version, its scoped rules as clauses. Percentages and money arrive as decimal text and are
 * parsed exactly; the record's sources, quotes, confidence and dates are kept.
 */
import { Research } from "@levy/rules"
import { Either } from "effect"
import * as Decimal from "../Decimal.js"
import * as Rate from "../Rate.js"
import * as Clauses from "./Clauses.js"
import type { CardType, Clause, Limit, Rule, Terms } from "./Rule.js"

/** "Before anything known": a version from this day has no start. */
const OPEN_START = "1900-01-01"
const CARD_TYPES: ReadonlyArray<CardType> = ["credit", "debit", "prepaid"]

/** A decoded research record's rules, one per version, oldest first. */
export const fromRecord = (record: Research.Record): ReadonlyArray<Rule> =>
  record.versions.map((version) => fromVersion(record, version))

/** Research files (JSON as read) decoded; a file that does not validate is an error naming it. */
export const decodeFiles = (
  files: ReadonlyArray<{ readonly file: string; readonly json: unknown }>
): Either.Either<ReadonlyArray<Research.Record>, string> => {
  const records: Array<Research.Record> = []
  for (const { file, json } of files) {
    const decoded = Research.decode(json, file.replace(/\.json$/, ""))
    if (Either.isLeft(decoded)) return Either.left(`research/${file}: ${decoded.left}`)
    records.push(decoded.right)
  }
  return Either.right(records)
}

const fromVersion = (record: Research.Record, version: Research.Version): Rule => {
  const clauses = version.rules.map(clause)
  // The headline terms (what GET /v1/regions shows): a consumer's domestic credit-card surcharge
  // online, or convenience fee where that is all the record governs (a network's convenience-fee rule).
  const headline = Clauses.resolve(clauses, {
    scheme: "four_party",
    commercial: false,
    issuing: "domestic",
    cardType: "credit",
    channel: "online",
    network: "",
    amount: undefined,
    merchantCategory: undefined,
    feeType: version.rules.every(governsConvenienceFeesOnly) ? "convenience_fee" : "surcharge"
  }).terms
  const networks = [...new Set(version.rules.flatMap((r) => r.scope.networks ?? []))]
  const feeTypes = [...new Set(version.rules.flatMap((r) => r.scope.feeTypes ?? []))]
  return {
    ...headline,
    cardTypes: headline.cardTypes,
    code: record.code,
    kind: record.kind,
    country: record.code.slice(0, 2),
    state: record.kind === "place" && record.code.length > 2 ? record.name : null,
    currency: record.currency,
    networks: record.kind === "network" ? networks : [],
    feeTypes: feeTypes.length === 0 ? ["surcharge", "convenience_fee"] : feeTypes,
    channel: null,
    business: null,
    convenienceFee: null,
    effectiveFrom: version.effectiveFrom === OPEN_START ? null : version.effectiveFrom,
    effectiveUntil: version.effectiveUntil,
    clauses,
    sourceStatus: "research",
    restrictions: [version.notes, ...version.rules.map((r) => r.notes)]
      .filter((text) => text.length > 0)
      .join(" "),
    disclosureText: headline.disclosureText ?? null,
    sources: version.sources.map((s) => s.url),
    citations: version.sources,
    confidence: version.confidence,
    currentAsOf: record.checkedOn
  }
}

const governsConvenienceFeesOnly = (rule: Research.ResearchRule): boolean =>
  rule.scope.feeTypes !== undefined && !rule.scope.feeTypes.includes("surcharge")

const clause = (rule: Research.ResearchRule): Clause => {
  const limit = rule.alternatives === null ? rule.limit : null
  const terms: Terms = {
    status: rule.status,
    cardTypes: CARD_TYPES,
    cardholders: ["consumer", "business"],
    channels: rule.allowedChannels ?? ["online", "in_person"],
    ...limitOf(limit),
    flatOnly: rule.flatOnly,
    recurringAllowed: rule.recurringAllowed,
    requiresDisclosure: rule.requiresDisclosure,
    standardChannelOnly: rule.standardChannelOnly,
    ...(rule.networkParity ? { networkParity: true } : {}),
    disclosureText: rule.disclosureText,
    ...(rule.alternatives === null ? {} : { alternatives: rule.alternatives.map(limitOf) })
  }
  return { scope: rule.scope, terms }
}

const limitOf = (limit: Research.Limit | null): Limit => ({
  maxPercentage: limit?.maxPercentage == null ? null : percent(limit.maxPercentage),
  maxFlatFee: limit?.maxFlatFee == null ? null : major(limit.maxFlatFee),
  costOfAcceptanceCap: limit?.costOfAcceptance ?? false
})

/** "2.5" → 2.5, read exactly as parts per million first (the schema has checked the text). */
const percent = (text: string): number =>
  Rate.percentageToNumber(Either.getOrThrow(Rate.parsePercentage(text)).ppm)

/** "0.30" → 0.3, read exactly to thousandths first. */
const major = (text: string): number => {
  const thousandths = Decimal.toScaled(Either.getOrThrow(Decimal.parse(text, 3)), 3)!
  return thousandths / 1000
}
