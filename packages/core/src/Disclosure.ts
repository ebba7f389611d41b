/**
 * The disclosure a payer is shown for the fee actually charged: the place's template (kept raw
 * on the region) with its placeholders filled in the charge's currency. Every door (estimates,
 * charges, the engine's quotes, the dashboard) shows this text, never the template.
 */
import * as Currency from "./Currency.js"
import * as Rounding from "./Rounding.js"

/** The fee a disclosure describes, every amount in minor units of `currency`. */
export interface Charged {
  readonly amount: number
  readonly fee: number
  /** The flat part of `fee`. */
  readonly flatPart: number
  readonly currency: Currency.Currency
}

/**
 * Used where the place's own text announces that no fee is charged (the UK's consumer-card
 * notice) but a fee is charged all the same, as the law of the place allows on a business card.
 */
export const FEE_CHARGED =
  "A card surcharge of {fee} ({rate}% of the amount) is added to this payment: you pay {credit_total} instead of {cash_total}."

/** The text to show for `charged` under `template`; null when there is none or no fee is charged. */
export const render = (template: string | null, charged: Charged): string | null => {
  if (template === null || charged.fee === 0) return null
  // An estimate renders one template twice (the fee collected and the fee configured): the
  // last one is kept beside the cache, a pointer check instead of a hash lookup.
  if (template !== lastTemplate) {
    let prepared = forPayer.get(template)
    if (prepared === undefined) {
      const text = withoutNotes(template)
      prepared = prepare(announcesNoFee(text) ? FEE_CHARGED : text === template ? template : text)
      remember(forPayer, template, prepared)
    }
    lastTemplate = template
    lastPrepared = prepared
  }
  return filled(lastPrepared, charged)
}

let lastTemplate: string | undefined
let lastPrepared: Prepared = { texts: [""], placeholders: [] }

/** `template` with `{rate}`, `{flat}`, `{fee}`, `{credit_total}` and `{cash_total}` filled. */
export const fill = (template: string, charged: Charged): string => {
  let prepared = asWritten.get(template)
  if (prepared === undefined) {
    prepared = prepare(template)
    remember(asWritten, template, prepared)
  }
  return filled(prepared, charged)
}

type Placeholder = "rate" | "flat" | "fee" | "credit_total" | "cash_total"

/**
 * A template split once into its text and its placeholders (`texts` has one more entry than
 * `placeholders`), so a disclosure is filled by joining strings: no regular expression runs per
 * estimate (docs/performance.md).
 */
interface Prepared {
  readonly texts: ReadonlyArray<string>
  readonly placeholders: ReadonlyArray<Placeholder>
}

// A template's own "$" before a placeholder goes: the amount carries its currency's symbol.
const PLACEHOLDER = /\$?\{(rate|flat|fee|credit_total|cash_total)\}/g

const prepare = (template: string): Prepared => {
  const texts: Array<string> = []
  const placeholders: Array<Placeholder> = []
  let from = 0
  for (const match of template.matchAll(PLACEHOLDER)) {
    texts.push(template.slice(from, match.index))
    placeholders.push(match[1] as Placeholder)
    from = match.index! + match[0].length
  }
  // A text with nothing to fill is the template itself, so a caller's identity check holds.
  texts.push(from === 0 ? template : template.slice(from))
  return { texts, placeholders }
}

const filled = (prepared: Prepared, charged: Charged): string => {
  let text = prepared.texts[0]!
  for (let i = 0; i < prepared.placeholders.length; i++) {
    text += valueOf(prepared.placeholders[i]!, charged) + prepared.texts[i + 1]!
  }
  return text
}

const valueOf = (name: Placeholder, charged: Charged): string => {
  switch (name) {
    case "rate":
      return percentText(effectiveRateHundredths(charged))
    case "flat":
      return Currency.format(charged.currency, charged.flatPart)
    case "fee":
      return Currency.format(charged.currency, charged.fee)
    case "credit_total":
      return Currency.format(charged.currency, charged.amount + charged.fee)
    default:
      return Currency.format(charged.currency, charged.amount)
  }
}

/** Prepared templates by the raw text, for the payer (`render`) and as written (`fill`). */
const forPayer = new Map<string, Prepared>()
const asWritten = new Map<string, Prepared>()

/** Templates are the rulesets' (a few hundred); a caller passing endless new ones is bounded. */
const remember = (cache: Map<string, Prepared>, template: string, prepared: Prepared): void => {
  if (cache.size >= 1_000) cache.clear()
  cache.set(template, prepared)
}

/**
 * fee / amount rounded half-up to a hundredth of a percent, in hundredths: 250 on 10000 → 250
 * (2.5 %). The effective rate, as caps bind it (docs/design.md §3).
 */
const effectiveRateHundredths = (c: Charged): number =>
  Rounding.mulDiv(c.fee, 10_000, c.amount, "half_up")

/**
 * Hundredths of a percent as the shortest decimal text, as `String(Rate.percentageToNumber(ppm))`
 * writes it (250 → "2.5", 300 → "3", 241 → "2.41"), by integer arithmetic and a table: no
 * float is divided and converted to text per disclosure (docs/performance.md).
 */
export const percentText = (hundredths: number): string => {
  // No amount (0) gives no rate to lay out by hand: the float's own text, as before.
  if (!Number.isSafeInteger(hundredths) || hundredths < 0) return String(hundredths / 100)
  const fraction = hundredths % 100
  const whole = String((hundredths - fraction) / 100)
  return fraction === 0 ? whole : whole + PERCENT_FRACTIONS[fraction]!
}

/** A hundredth's digits after the point, trailing zero dropped: 50 → ".5", 5 → ".05". */
const PERCENT_FRACTIONS = Array.from({ length: 100 }, (_, i) =>
  `.${String(i).padStart(2, "0")}`.replace(/0$/, "")
)

/**
 * The text without the researchers' bracketed notes ("[Option (II) wording: …]"): they record
 * an alternative reading of the statute for us, not words for the payer.
 */
const withoutNotes = (text: string): string => text.replace(/\s*\[[^\]]*\]/g, "").trim()

/**
 * Whether the text tells the payer that no fee is charged ("No surcharge is charged for paying
 * with a consumer … card."), as opposed to one that names a fee and a card it is not charged on
 * ("… No surcharge on debit.").
 */
const announcesNoFee = (text: string): boolean =>
  /(^|[.!]\s+)No (surcharge|additional fee) (is|may|for)\b/.test(text)
