/**
 * The compliance matrix: the configuration's fee against every region of the ruleset × every
 * card type, computed in the page by the engine (feeEngine.ts), from the form's draft as it
 * is typed. Each cell says its verdict in words and colour, the reason in its tooltip.
 */
import { Field } from "@levy/api"
import { field, h, mount, notice, table } from "../dom.js"
import { allRegions, check, type Prepared } from "../feeEngine.js"
import { placeName } from "../places.js"

const CARD_TYPES = Field.CardType.literals

/** What the matrix shows: a configuration the engine accepted, and whose it is. */
export interface Shown {
  readonly prepared: Prepared
  readonly label: string
}

/**
 * Refusals over a cap: a charge still collects a fee there, lowered to the cap (or to its flat
 * part), so the cell says "lowered", not "not allowed" (where it collects none).
 */
const LOWERED: ReadonlyArray<string> = [
  "percentage_over_limit",
  "network_cap_exceeded",
  "over_cost_of_acceptance",
  "flat_fee_over_limit",
  "convenience_fee_must_be_flat"
]

/** The cell's tone and word for a verdict. */
const verdictOf = (verdict: {
  readonly compliant: boolean
  readonly reasonCode: string | null
}): readonly [string, string] =>
  verdict.compliant
    ? ["ok", "allowed"]
    : verdict.reasonCode === "legal_uncertainty"
      ? // Uncertain law is a warning (allowUncertain may permit it).
        ["warn", "uncertain"]
      : LOWERED.includes(verdict.reasonCode ?? "")
        ? ["lowered", "lowered"]
        : ["bad", "not allowed"]

/** One cell: the verdict as a word (never colour alone) and the reason in its title. */
const cell = (prepared: Prepared, region: string, cardType: Field.CardType) => {
  const key = `${region} ${cardType}`
  const result = check(prepared, region, cardType)
  if (!result.ok)
    return h(
      "span",
      { class: "verdict bad", title: result.error.message, "data-cell": key },
      "error"
    )
  const verdict = result.value
  const [tone, text] = verdictOf(verdict)
  return h(
    "span",
    {
      class: `verdict ${tone}`,
      title: verdict.compliant ? "compliant" : `${verdict.reasonCode}: ${verdict.reason}`,
      "data-cell": key,
      "data-reason": verdict.reasonCode ?? ""
    },
    text
  )
}

/** Regions whose code or name contains `filter` (case-insensitive); all when it is empty. */
const matching = (filter: string) => {
  const wanted = filter.trim().toUpperCase()
  return allRegions().filter(
    (r) =>
      wanted === "" || r.regionCode.includes(wanted) || placeName(r).toUpperCase().includes(wanted)
  )
}

export const feeMatrix = () => {
  const filter = h("input", {
    type: "search",
    name: "matrixFilter",
    placeholder: "US, CA-QC, Texas…",
    autocomplete: "off"
  })
  const out = h("div", { "data-testid": "compliance-matrix" })
  let shown: Shown | undefined
  const render = () => {
    if (shown === undefined) return
    const { prepared, label } = shown
    const regions = matching(filter.value)
    if (regions.length === 0) {
      mount(out, notice("No region matches."))
      return
    }
    mount(
      out,
      table(
        `${prepared.draft.percentage} % + ${prepared.draft.flatFee}, ${label}, against ${regions.length} regions × ${CARD_TYPES.length} card types`,
        ["Region", ...CARD_TYPES],
        regions.map((region) => [
          h("span", { title: placeName(region) }, region.regionCode),
          ...CARD_TYPES.map((cardType) => cell(prepared, region.regionCode, cardType))
        ])
      )
    )
  }
  filter.addEventListener("input", render)
  return {
    element: h(
      "section",
      { class: "card", "aria-labelledby": "matrix-h" },
      h("h2", { id: "matrix-h" }, "Compliance matrix"),
      h(
        "p",
        {},
        "The fee's rate checked against every region and card type by the same engine and ruleset as POST /v1/regions/check-compliance, here in the page, with the configuration's own opt-in to uncertain law and merchant category. Allowed: the fee as configured; lowered: over a cap, a charge collects the fee lowered to it; not allowed: no fee at all; uncertain: the law is not settled. Hover a cell for the reason."
      ),
      h("div", { class: "form-grid" }, field("Filter by country or region", filter)),
      out
    ),
    /** Shows `next` (the draft, or the saved configuration while the draft is refused). */
    show: (next: Shown) => {
      shown = next
      render()
    }
  }
}
