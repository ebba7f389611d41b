/**
 * The overview's figures from the API's own lists, for one currency and period: per UTC day,
 * charges (succeeded and failed), fees collected, refunds and disputes; fees by region and by
 * card type; and the charges whose configured fee compliance lowered or refused, by reason.
 * Pure: the view fetches the lists and draws these. Money stays integer minor units.
 */
import type { Charge, Dispute, Refund } from "@levy/api"

const DAY = 86_400

/** One day's figures, `day` its start (Unix seconds, UTC). */
export interface Day {
  readonly day: number
  readonly succeeded: number
  readonly failed: number
  /** Fees of the day's succeeded charges, minor units. */
  readonly fees: number
  readonly refunds: number
  /** What the day's refunds gave back (base and fee), minor units. */
  readonly refunded: number
  readonly disputes: number
}

/** Why the configured fee was not charged as configured, with how many charges. */
export interface Adjusted {
  readonly reasonCode: string
  /** Lowered to a smaller fee, or refused (no fee at all). */
  readonly lowered: number
  readonly refused: number
}

export interface Overview {
  readonly days: ReadonlyArray<Day>
  /** Succeeded charges, fees and totals. */
  readonly charges: number
  readonly fees: number
  readonly byRegion: ReadonlyArray<readonly [string, number]>
  readonly byCardType: ReadonlyArray<readonly [string, number]>
  readonly adjusted: ReadonlyArray<Adjusted>
  /** Succeeded charges whose configured fee was charged as configured. */
  readonly asConfigured: number
}

/** The UTC day start of `seconds`. */
export const dayOf = (seconds: number) => seconds - (seconds % DAY)

/** The `days` UTC days ending with the one holding `now`, oldest first. */
export const period = (now: number, days: number): ReadonlyArray<number> => {
  const last = dayOf(now)
  return Array.from({ length: days }, (_, i) => last - (days - 1 - i) * DAY)
}

const add = (totals: Map<string, number>, key: string, amount: number) =>
  totals.set(key, (totals.get(key) ?? 0) + amount)

/** Largest first. */
const ranked = (totals: Map<string, number>) => [...totals].sort((a, b) => b[1] - a[1])

/** The overview of `currency` over the days of `days` (from `period`). */
export const overview = (
  days: ReadonlyArray<number>,
  currency: string,
  lists: {
    readonly charges: ReadonlyArray<Charge.Charge>
    readonly refunds: ReadonlyArray<Refund.Refund>
    readonly disputes: ReadonlyArray<Dispute.Dispute>
  }
): Overview => {
  const same = (c: string) => c.toLowerCase() === currency.toLowerCase()
  const byDay = new Map(
    days.map((day) => [
      day,
      { day, succeeded: 0, failed: 0, fees: 0, refunds: 0, refunded: 0, disputes: 0 }
    ])
  )
  const byRegion = new Map<string, number>()
  const byCardType = new Map<string, number>()
  const adjusted = new Map<string, { lowered: number; refused: number }>()
  let charges = 0
  let fees = 0
  let asConfigured = 0
  for (const charge of lists.charges) {
    const day = byDay.get(dayOf(charge.created))
    if (day === undefined || !same(charge.currency)) continue
    if (charge.status === "failed") day.failed += 1
    if (charge.status !== "succeeded") continue
    day.succeeded += 1
    day.fees += charge.convenienceFee
    charges += 1
    fees += charge.convenienceFee
    add(byRegion, charge.region ?? "none", charge.convenienceFee)
    add(byCardType, charge.cardType ?? "unknown", charge.convenienceFee)
    const configured = charge.configured
    if (configured === undefined || configured.compliant) {
      asConfigured += 1
      continue
    }
    const reason = configured.reasonCode ?? "not_compliant"
    const counts = adjusted.get(reason) ?? { lowered: 0, refused: 0 }
    if (charge.convenienceFee === 0) counts.refused += 1
    else counts.lowered += 1
    adjusted.set(reason, counts)
  }
  for (const refund of lists.refunds) {
    const day = byDay.get(dayOf(refund.created))
    if (day === undefined || !same(refund.currency) || refund.status === "failed") continue
    day.refunds += 1
    day.refunded += refund.totalAmount
  }
  for (const dispute of lists.disputes) {
    const day = byDay.get(dayOf(dispute.created))
    if (day === undefined || !same(dispute.currency)) continue
    day.disputes += 1
  }
  return {
    days: [...byDay.values()],
    charges,
    fees,
    byRegion: ranked(byRegion),
    byCardType: ranked(byCardType),
    adjusted: [...adjusted]
      .map(([reasonCode, counts]) => ({ reasonCode, ...counts }))
      .sort((a, b) => b.lowered + b.refused - (a.lowered + a.refused)),
    asConfigured
  }
}

/** The currencies of `charges`, most charged first (the overview shows one at a time). */
export const currencies = (charges: ReadonlyArray<Charge.Charge>): ReadonlyArray<string> => {
  const counts = new Map<string, number>()
  for (const charge of charges) add(counts, charge.currency.toLowerCase(), 1)
  return ranked(counts).map(([code]) => code)
}
