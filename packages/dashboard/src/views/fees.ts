/**
 * The fee configuration: view and edit, a preview of the configured fee on sample amounts
 * (POST /v1/estimates), a compliance matrix of the fee against a country's regions × card
 * types (POST /v1/regions/check-compliance), and in live mode the pending change with
 * approve/cancel.
 */

import type { FeeConfig, FeeConfigUpdate } from "@levy/api"
import { Field } from "@levy/api"
import { badge, button, errorBox, facts, field, guarded, h, mount, notice, table } from "../dom.js"
import { money, optionalNumber, time } from "../format.js"
import type { Session } from "../session.js"

type Config = FeeConfig.FeeConfig
type Update = {
  -readonly [K in keyof FeeConfigUpdate.FeeConfigUpdate]: FeeConfigUpdate.FeeConfigUpdate[K]
}

/** Sample base amounts of the preview, minor units ($10, $25, $100, $500). */
const SAMPLES = [1000, 2500, 10000, 50000]
/** Regions per matrix page: 3 card types each, so one page is 30 checks (the rate limit is per minute). */
const MATRIX_PAGE = 10
/** Checks in flight at once. */
const CONCURRENCY = 6

const CARD_TYPES = Field.CardType.literals

const select = (name: string, values: ReadonlyArray<string>, current: string) =>
  h(
    "select",
    { name },
    ...values.map((value) => h("option", { value, selected: value === current }, value))
  )

const numberInput = (name: string, value: number | null, step: string) =>
  h("input", { type: "number", name, step, min: "0", value: value === null ? "" : String(value) })

/** The form's fields that differ from `config`, as an update; throws on an invalid number. */
const changesOf = (form: HTMLFormElement, config: Config): Update => {
  const data = new FormData(form)
  const text = (name: string) => String(data.get(name) ?? "")
  const num = (name: string, label: string): number | null => {
    const value = optionalNumber(text(name))
    if (value === undefined) throw new Error(`${label} must be a number.`)
    return value
  }
  const required = (name: string, label: string): number => {
    const value = num(name, label)
    if (value === null) throw new Error(`${label} is required.`)
    return value
  }
  const next: Update = {
    percentage: required("percentage", "Percentage"),
    flatFee: required("flatFee", "Flat fee"),
    minFee: num("minFee", "Minimum fee"),
    maxFee: num("maxFee", "Maximum fee"),
    minAmount: required("minAmount", "Minimum amount"),
    maxAmount: num("maxAmount", "Maximum amount"),
    rounding: text("rounding") as Config["rounding"],
    model: text("model") as Config["model"],
    billingMode: text("billingMode") as Config["billingMode"],
    nonCompliant: text("nonCompliant") as Config["nonCompliant"],
    allowUncertain: data.get("allowUncertain") === "on",
    defaultRegion:
      text("defaultRegion").trim() === "" ? null : text("defaultRegion").trim().toUpperCase()
  }
  const changed: Update = {}
  for (const [key, value] of Object.entries(next) as Array<[keyof Update, Update[keyof Update]]>) {
    if (config[key as keyof Config] !== value) Object.assign(changed, { [key]: value })
  }
  return changed
}

const editForm = (
  session: Session,
  config: Config,
  saved: (message: HTMLElement) => Promise<void>
) => {
  const status = h("div", { "aria-live": "polite" })
  const form: HTMLFormElement = h(
    "form",
    {
      class: "card fee-form",
      "aria-label": "Edit the fee configuration",
      onsubmit: guarded(status, async () => {
        const changes = changesOf(form, config)
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
      field("Percentage (%)", numberInput("percentage", config.percentage, "0.0001")),
      field("Flat fee (major units)", numberInput("flatFee", config.flatFee, "0.01")),
      field("Minimum fee (minor units)", numberInput("minFee", config.minFee, "1"), "empty: none"),
      field("Maximum fee (minor units)", numberInput("maxFee", config.maxFee, "1"), "empty: none"),
      field("Minimum amount (minor units)", numberInput("minAmount", config.minAmount, "1")),
      field(
        "Maximum amount (minor units)",
        numberInput("maxAmount", config.maxAmount, "1"),
        "empty: none"
      ),
      field("Rounding", select("rounding", Field.RoundingMode.literals, config.rounding)),
      field("Model", select("model", Field.FeeModel.literals, config.model)),
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
      )
    ),
    h("button", { type: "submit" }, "Save"),
    status
  )
  return form
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
          await session.levy.feeConfigs.approvePending()
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

/** The fee on each sample amount for the chosen region and card type. */
const preview = (session: Session, config: Config) => {
  const region = h("input", {
    type: "text",
    name: "previewRegion",
    value: config.defaultRegion ?? "US-NY",
    placeholder: "US-NY"
  })
  const card = select("previewCard", ["any", ...CARD_TYPES], "credit")
  const currency = h("input", {
    type: "text",
    name: "previewCurrency",
    value: "usd",
    maxlength: 3,
    size: 4
  })
  const out = h("div", { "aria-live": "polite", "data-testid": "fee-preview" })
  const refresh = async () => {
    out.replaceChildren(notice("Estimating…"))
    const cur = currency.value.trim().toLowerCase()
    const estimates = await Promise.all(
      SAMPLES.map((amount) =>
        session.levy.estimates.create({
          amount,
          currency: cur,
          ...(region.value.trim() === "" ? {} : { region: region.value.trim().toUpperCase() }),
          ...(card.value === "any" ? {} : { cardType: card.value as Field.CardType })
        })
      )
    )
    mount(
      out,
      table(
        "The configured fee on sample amounts",
        ["Amount", "Fee", "Total", "Compliant"],
        estimates.map((e) => [
          money(e.baseAmount, e.currency),
          h("span", { class: "fee" }, money(e.convenienceFee, e.currency)),
          money(e.totalAmount, e.currency),
          e.compliant ? badge("yes", "ok") : badge(e.compliance.reasonCode ?? "no", "bad")
        ])
      )
    )
  }
  const run = () => refresh().catch((error: unknown) => out.replaceChildren(errorBox(error)))
  for (const control of [region, card, currency]) control.addEventListener("change", run)
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
      out
    ),
    run
  }
}

/** Runs `tasks` at most `limit` at a time, in order of the results. */
const pool = async <A>(
  tasks: ReadonlyArray<() => Promise<A>>,
  limit: number
): Promise<Array<A>> => {
  const results: Array<A> = new Array(tasks.length)
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++
      results[i] = await tasks[i]!()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker))
  return results
}

/** The configured fee against a country's regions × card types, page by page. */
const matrix = (session: Session, config: Config) => {
  const country = h("input", {
    type: "text",
    name: "matrixCountry",
    value: "US",
    maxlength: 2,
    size: 3
  })
  const status = h("div", { "aria-live": "polite" })
  const out = h("div", { "data-testid": "compliance-matrix" })
  const show = async (after?: string) => {
    out.replaceChildren(notice("Checking…"))
    const regions = await session.levy.regions.list({
      country: country.value.trim().toUpperCase(),
      limit: MATRIX_PAGE,
      ...(after === undefined ? {} : { starting_after: after })
    })
    const checks = await pool(
      regions.data.flatMap((region) =>
        CARD_TYPES.map(
          (cardType) => () =>
            session.levy.regions.checkCompliance({
              region: region.regionCode,
              percentage: config.percentage,
              flatFee: config.flatFee,
              cardType
            })
        )
      ),
      CONCURRENCY
    )
    const last = regions.data[regions.data.length - 1]
    mount(
      out,
      table(
        `${config.percentage} % + ${config.flatFee} against each region and card type`,
        ["Region", ...CARD_TYPES],
        regions.data.map((region, r) => [
          h("span", { title: region.state ?? region.country }, region.regionCode),
          ...CARD_TYPES.map((_, c) => {
            const check = checks[r * CARD_TYPES.length + c]!
            // Uncertain law is a warning (allowUncertain may permit it), the rest a refusal.
            const tone = check.compliant
              ? "ok"
              : check.reasonCode === "legal_uncertainty"
                ? "warn"
                : "bad"
            return h(
              "span",
              {
                class: `verdict ${tone}`,
                title: check.reason ?? "compliant"
              },
              check.compliant ? "compliant" : (check.reasonCode ?? "not compliant")
            )
          })
        ])
      ),
      regions.has_more && last !== undefined
        ? button(
            "Next regions →",
            guarded(status, () => show(last.regionCode))
          )
        : false
    )
  }
  const form = h(
    "form",
    { class: "inline", "aria-label": "Compliance matrix", onsubmit: guarded(status, () => show()) },
    field("Country", country),
    h("button", { type: "submit" }, "Check matrix")
  )
  return h(
    "section",
    { class: "card", "aria-labelledby": "matrix-h" },
    h("h2", { id: "matrix-h" }, "Compliance matrix"),
    h(
      "p",
      {},
      `The configured fee checked against ${MATRIX_PAGE} regions at a time (three checks each).`
    ),
    form,
    status,
    out
  )
}

export const fees = async (main: HTMLElement, session: Session): Promise<void> => {
  const config = await session.levy.feeConfigs.retrieve()
  const reload = async (message: HTMLElement) => {
    await fees(main, session)
    main.querySelector(".flash")?.replaceChildren(message)
  }
  const shown = preview(session, config)
  mount(
    main,
    h("h1", {}, `Fee configuration (${config.livemode ? "live" : "test"} mode)`),
    h("div", { class: "flash", "aria-live": "polite" }),
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
          "Limits",
          `fee ${config.minFee ?? "—"} … ${config.maxFee ?? "—"}; amount ${config.minAmount} … ${config.maxAmount ?? "—"} (minor units)`
        ],
        ["Regions", config.regionCodes.length === 0 ? "all" : config.regionCodes.join(", ")]
      ])
    ),
    h("div", { class: "grid" }, editForm(session, config, reload), shown.element),
    matrix(session, config)
  )
  await shown.run()
}
