/**
 * The fee configuration: view and edit; as the form is typed, the draft's fee on sample
 * amounts and its compliance matrix (every region × card type), both computed in the page by
 * @levy/core; the saved configuration's fee as the server estimates it; the changes of the law
 * announced to the account; and in live mode the pending change with approve/cancel.
 */

import type { FeeConfig } from "@levy/api"
import { Field } from "@levy/api"
import { button, facts, field, guarded, h, mount, notice } from "../dom.js"
import { type Prepared, prepare, type Refusal } from "../feeEngine.js"
import { money, time } from "../format.js"
import type { Session } from "../session.js"
import { changesOf, draftOf, readForm } from "./feeForm.js"
import { feeMatrix } from "./feeMatrix.js"
import { feePreview } from "./feePreview.js"
import { lawChanges } from "./lawChanges.js"

type Config = FeeConfig.FeeConfig

const select = (name: string, values: ReadonlyArray<string>, current: string) =>
  h(
    "select",
    { name },
    ...values.map((value) => h("option", { value, selected: value === current }, value))
  )

const numberInput = (name: string, value: number | null, step: string) =>
  h("input", { type: "number", name, step, min: "0", value: value === null ? "" : String(value) })

/** Where the draft goes on every edit: the engine's schedule, or the field it refuses. */
type OnDraft = (
  draft:
    | { readonly ok: true; readonly value: Prepared; readonly edited: boolean }
    | { readonly ok: false; readonly error: Refusal }
) => void

/** Each field's message slot, by the field's name: the engine's refusal shows there. */
const messages = () => {
  const slots = new Map<string, HTMLElement>()
  return {
    /** A labelled control with a slot for its message. */
    field: (label: string, control: HTMLInputElement | HTMLSelectElement, hint?: string) => {
      const slot = h("small", { class: "field-error", id: `${control.name}-message` })
      control.setAttribute("aria-describedby", slot.id)
      slots.set(control.name, slot)
      const wrapped = field(label, control, hint)
      wrapped.appendChild(slot)
      return wrapped
    },
    /** Shows `error` at its field (or nowhere but the preview, for a field the form lacks). */
    show: (form: HTMLFormElement, error: Refusal | undefined) => {
      for (const [name, slot] of slots) {
        const mine = error !== undefined && error.param === name
        slot.textContent = mine ? error.message : ""
        const control = form.elements.namedItem(name)
        if (control instanceof HTMLElement) control.setAttribute("aria-invalid", String(mine))
      }
    }
  }
}

const editForm = (
  session: Session,
  config: Config,
  saved: (message: HTMLElement) => Promise<void>,
  onDraft: OnDraft
) => {
  const status = h("div", { "aria-live": "polite" })
  const slots = messages()
  /** Reads the form and hands the draft on: runs on every input, before any Save. */
  const edited = () => {
    const read = readForm(form)
    const prepared = read.ok ? prepare(draftOf(read.value, config)) : read
    slots.show(form, prepared.ok ? undefined : prepared.error)
    if (!prepared.ok) return onDraft(prepared)
    const changed = read.ok && Object.keys(changesOf(read.value, config)).length > 0
    onDraft({ ok: true, value: prepared.value, edited: changed })
  }
  const form: HTMLFormElement = h(
    "form",
    {
      class: "card fee-form",
      "aria-label": "Edit the fee configuration",
      oninput: edited,
      onchange: edited,
      onsubmit: guarded(status, async () => {
        const read = readForm(form)
        if (!read.ok) throw new Error(read.error.message)
        const changes = changesOf(read.value, config)
        if (Object.keys(changes).length === 0) {
          status.replaceChildren(notice("Nothing changed."))
          return
        }
        const result = await session.levy.feeConfigs.update(changes)
        await saved(
          notice(
            result.updated === false
              ? "Saved as a pending change: in live mode a higher fee waits for approval by another key."
              : "Fee configuration saved."
          )
        )
      })
    },
    h("h2", {}, "Edit"),
    h(
      "div",
      { class: "form-grid" },
      slots.field("Percentage (%)", numberInput("percentage", config.percentage, "0.0001")),
      slots.field("Flat fee (major units)", numberInput("flatFee", config.flatFee, "0.01")),
      slots.field(
        "Minimum fee (minor units)",
        numberInput("minFee", config.minFee, "1"),
        "empty: none"
      ),
      slots.field(
        "Maximum fee (minor units)",
        numberInput("maxFee", config.maxFee, "1"),
        "empty: none"
      ),
      slots.field("Minimum amount (minor units)", numberInput("minAmount", config.minAmount, "1")),
      slots.field(
        "Maximum amount (minor units)",
        numberInput("maxAmount", config.maxAmount, "1"),
        "empty: none"
      ),
      slots.field("Rounding", select("rounding", Field.RoundingMode.literals, config.rounding)),
      slots.field("Model", select("model", Field.FeeModel.literals, config.model)),
      field("Billing", select("billingMode", Field.BillingMode.literals, config.billingMode)),
      field(
        "When not compliant",
        select("nonCompliant", ["adjust", "reject"], config.nonCompliant)
      ),
      field(
        "Default region",
        h("input", {
          type: "text",
          name: "defaultRegion",
          value: config.defaultRegion ?? "",
          placeholder: "US-CA"
        })
      ),
      h(
        "label",
        { class: "check" },
        h("input", { type: "checkbox", name: "allowUncertain", checked: config.allowUncertain }),
        "Allow regions whose rules are uncertain"
      ),
      h(
        "label",
        { class: "check" },
        h("input", { type: "checkbox", name: "requireRegion", checked: config.requireRegion }),
        "Require a region on every charge (refuse one without)"
      )
    ),
    h("button", { type: "submit" }, "Save"),
    status
  )
  return { form, edited }
}

const pendingPanel = (
  session: Session,
  config: Config,
  done: (message: HTMLElement) => Promise<void>
) => {
  const pending = config.pendingChange
  if (pending === undefined) return false
  const status = h("div", { "aria-live": "polite" })
  return h(
    "section",
    { class: "card pending", "aria-labelledby": "pending-h" },
    h("h2", { id: "pending-h" }, "Pending change"),
    h(
      "p",
      {},
      `Requested ${time(pending.requestedAt)} (${pending.id}). Another secret key must approve it; either may cancel it.`
    ),
    h("pre", {}, JSON.stringify(pending.changes, null, 2)),
    h(
      "div",
      { class: "actions" },
      button(
        "Approve",
        guarded(status, async () => {
          await session.levy.feeConfigs.approvePending(pending.id)
          await done(notice("Pending change approved and applied."))
        })
      ),
      button(
        "Cancel change",
        guarded(status, async () => {
          await session.levy.feeConfigs.cancelPending()
          await done(notice("Pending change cancelled."))
        }),
        { class: "danger" }
      )
    ),
    status
  )
}

/**
 * A range of minor units in words, with a two-decimal currency's reading of each bound, since
 * limits are minor units of whatever currency is charged: "at least 50 (0.50 USD); no maximum".
 */
export const limits = (min: number | null, max: number | null): string => {
  const bound = (minor: number) => `${minor.toLocaleString("en")} (${money(minor, "usd")})`
  const low = min === null || min === 0 ? "no minimum" : `at least ${bound(min)}`
  const high = max === null ? "no maximum" : `at most ${bound(max)}`
  return `${low}; ${high} (minor units of the currency charged)`
}

/**
 * While no default region is set, a charge that names none is checked against no rules
 * (`no_region`): the merchant should know before a charge shows "compliant" for that reason.
 */
const noRegionWarning = (config: Config) =>
  config.defaultRegion === null &&
  h(
    "p",
    { class: "warning", role: "status", "data-testid": "no-default-region" },
    config.requireRegion
      ? "No default region: charges without a region are refused (requireRegion)."
      : "No default region: a charge without a region is checked against no rules (reason code no_region) and always reported compliant. Set a default region, or require a region on every charge."
  )

export const fees = async (main: HTMLElement, session: Session): Promise<void> => {
  const [config, announced] = await Promise.all([
    session.levy.feeConfigs.retrieve(),
    lawChanges(session)
  ])
  const reload = async (message: HTMLElement) => {
    await fees(main, session)
    main.querySelector(".flash")?.replaceChildren(message)
  }
  const preview = feePreview(session, config)
  const matrix = feeMatrix()
  const saved = prepare(config)
  const edit = editForm(session, config, reload, (draft) => {
    preview.showDraft(draft)
    // A refused draft has no fee to check: the matrix keeps the saved configuration's.
    if (draft.ok)
      matrix.show({
        prepared: draft.value,
        label: draft.edited ? "the draft (computed here)" : "as saved (computed here)"
      })
    else if (saved.ok) matrix.show({ prepared: saved.value, label: "as saved (computed here)" })
  })
  mount(
    main,
    h("h1", {}, `Fee configuration (${config.livemode ? "live" : "test"} mode)`),
    h("div", { class: "flash", "aria-live": "polite" }),
    noRegionWarning(config),
    announced,
    pendingPanel(session, config, reload),
    h(
      "section",
      { class: "card", "aria-labelledby": "current-h" },
      h("h2", { id: "current-h" }, "Current"),
      facts([
        [
          "Fee",
          h("span", { "data-testid": "current-fee" }, `${config.percentage} % + ${config.flatFee}`)
        ],
        ["Model", config.model],
        [
          "Fee limits",
          h("span", { "data-testid": "fee-limits" }, limits(config.minFee, config.maxFee))
        ],
        [
          "Amounts charged",
          h("span", { "data-testid": "amount-limits" }, limits(config.minAmount, config.maxAmount))
        ],
        ["Regions", config.regionCodes.length === 0 ? "all" : config.regionCodes.join(", ")],
        [
          "Merchant category",
          h(
            "span",
            { "data-testid": "merchant-category" },
            config.merchantCategoryCode ?? "none stated (set it with POST /v1/fee-configs)"
          )
        ]
      ])
    ),
    h("div", { class: "grid" }, edit.form, preview.element),
    matrix.element
  )
  edit.edited()
  await preview.run()
}
