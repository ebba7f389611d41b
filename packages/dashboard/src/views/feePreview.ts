/**
 * The fee on sample amounts, twice: the form's draft, computed here by the engine on every
 * keystroke (feeEngine.ts), and the saved configuration, estimated by the server
 * (POST /v1/estimates), so the page never passes one off as the other.
 */
import type { FeeConfig } from "@levy/api"
import { Field } from "@levy/api"
import { badge, errorBox, field, h, mount, notice, nowrap, table } from "../dom.js"
import { estimate, type Prepared, type Refusal, type Sample } from "../feeEngine.js"
import { money } from "../format.js"
import type { Session } from "../session.js"

/** Sample base amounts of the preview, minor units ($10, $25, $100, $500). */
const SAMPLES = [1000, 2500, 10000, 50000]

const HEADERS = ["Amount", "Fee charged", "Total", "Configured fee compliant"]

/** The fields a row shows: the engine's estimate and the wire's share them. */
interface Quoted {
  readonly baseAmount: number
  readonly convenienceFee: number
  readonly totalAmount: number
  readonly currency: string
  readonly configured: { readonly compliant: boolean; readonly reasonCode: string | null }
}

const row = (e: Quoted) => [
  nowrap(money(e.baseAmount, e.currency)),
  h("span", { class: "fee" }, money(e.convenienceFee, e.currency)),
  nowrap(money(e.totalAmount, e.currency)),
  // The fee shown is what a charge collects; whether the configured fee had to be lowered for it.
  e.configured.compliant
    ? badge("yes", "ok")
    : badge(`lowered: ${e.configured.reasonCode ?? "not compliant"}`, "warn")
]

/** The draft's refusal of one sample (e.g. below the minimum amount), in its row. */
const refusedRow = (amount: number, currency: string, error: Refusal) => [
  nowrap(money(amount, currency)),
  h("span", { class: "fee error-text" }, error.message),
  "—",
  badge("refused", "bad")
]

export const feePreview = (session: Session, config: FeeConfig.FeeConfig) => {
  const region = h("input", {
    type: "text",
    name: "previewRegion",
    value: config.defaultRegion ?? "US-NY",
    placeholder: "US-NY"
  })
  const card = h(
    "select",
    { name: "previewCard" },
    ...["any", ...Field.CardType.literals].map((value) =>
      h("option", { value, selected: value === "credit" }, value)
    )
  )
  const currency = h("input", {
    type: "text",
    name: "previewCurrency",
    value: "usd",
    maxlength: 3,
    size: 4
  })
  const draftOut = h("div", { "aria-live": "polite", "data-testid": "fee-preview-draft" })
  const savedOut = h("div", { "aria-live": "polite", "data-testid": "fee-preview" })
  let draft:
    | { readonly ok: true; readonly value: Prepared }
    | { readonly ok: false; readonly error: Refusal }
    | undefined

  const sample = (amount: number): Sample => ({
    amount,
    currency: currency.value.trim().toLowerCase(),
    region: region.value.trim() === "" ? undefined : region.value.trim().toUpperCase(),
    cardType: card.value === "any" ? undefined : (card.value as Field.CardType)
  })

  const renderDraft = () => {
    if (draft === undefined) return
    if (!draft.ok) {
      mount(draftOut, h("p", { class: "error-text" }, `Not computed: ${draft.error.message}`))
      return
    }
    const prepared = draft.value
    mount(
      draftOut,
      table(
        "The form's values, before Save",
        HEADERS,
        SAMPLES.map((amount) => {
          const s = sample(amount)
          const quoted = estimate(prepared, s)
          return quoted.ok ? row(quoted.value) : refusedRow(amount, s.currency, quoted.error)
        })
      )
    )
  }

  const refreshSaved = async () => {
    savedOut.replaceChildren(notice("Estimating…"))
    const estimates = await Promise.all(
      SAMPLES.map((amount) => {
        const s = sample(amount)
        return session.levy.estimates.create({
          amount,
          currency: s.currency,
          ...(s.region === undefined ? {} : { region: s.region }),
          ...(s.cardType === undefined ? {} : { cardType: s.cardType })
        })
      })
    )
    mount(
      savedOut,
      table("The saved configuration, by POST /v1/estimates", HEADERS, estimates.map(row))
    )
  }
  const run = () =>
    refreshSaved().catch((error: unknown) => savedOut.replaceChildren(errorBox(error)))
  for (const control of [region, card, currency])
    control.addEventListener("change", () => {
      renderDraft()
      void run()
    })

  return {
    element: h(
      "section",
      { class: "card", "aria-labelledby": "preview-h" },
      h("h2", { id: "preview-h" }, "Preview"),
      h(
        "div",
        { class: "form-grid" },
        field("Region", region),
        field("Card type", card),
        field("Currency", currency)
      ),
      h("h3", {}, "Draft (computed here)"),
      draftOut,
      h("h3", {}, "Saved (from the API)"),
      savedOut
    ),
    run,
    /** Shows the draft's fees, or why the engine refused the draft. */
    showDraft: (next: NonNullable<typeof draft>) => {
      draft = next
      renderDraft()
    }
  }
}
