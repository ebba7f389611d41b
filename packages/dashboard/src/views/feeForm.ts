/**
 * The fee form's values: read from the form (each refusal naming its field, so the page can
 * show it next to that field), the draft the engine computes with, and the update Save sends.
 */
import type { FeeConfig, FeeConfigUpdate } from "@levy/api"
import type { Draft, Refusal } from "../feeEngine.js"
import { optionalNumber } from "../format.js"

type Config = FeeConfig.FeeConfig
type Update = {
  -readonly [K in keyof FeeConfigUpdate.FeeConfigUpdate]: FeeConfigUpdate.FeeConfigUpdate[K]
}

/** Every field the form edits. */
export interface FormValues {
  readonly percentage: number
  readonly flatFee: number
  readonly minFee: number | null
  readonly maxFee: number | null
  readonly minAmount: number
  readonly maxAmount: number | null
  readonly rounding: Config["rounding"]
  readonly model: Config["model"]
  readonly billingMode: Config["billingMode"]
  readonly nonCompliant: Config["nonCompliant"]
  readonly allowUncertain: boolean
  readonly requireRegion: boolean
  readonly defaultRegion: string | null
}

/** A field the form cannot read as a number. */
class Unreadable extends Error {
  constructor(
    readonly param: string,
    message: string
  ) {
    super(message)
  }
}

export type Read =
  | { readonly ok: true; readonly value: FormValues }
  | { readonly ok: false; readonly error: Refusal }

/** The form's values, or the first field that is not a number (or is required and empty). */
export const readForm = (form: HTMLFormElement): Read => {
  const data = new FormData(form)
  const text = (name: string) => String(data.get(name) ?? "")
  const num = (name: string, label: string): number | null => {
    const value = optionalNumber(text(name))
    if (value === undefined) throw new Unreadable(name, `${label} must be a number.`)
    return value
  }
  const required = (name: string, label: string): number => {
    const value = num(name, label)
    if (value === null) throw new Unreadable(name, `${label} is required.`)
    return value
  }
  try {
    return {
      ok: true,
      value: {
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
        requireRegion: data.get("requireRegion") === "on",
        defaultRegion:
          text("defaultRegion").trim() === "" ? null : text("defaultRegion").trim().toUpperCase()
      }
    }
  } catch (error) {
    if (error instanceof Unreadable)
      return { ok: false, error: { param: error.param, message: error.message } }
    throw error
  }
}

/** The draft the engine computes with: the form's values over the saved configuration. */
export const draftOf = (values: FormValues, config: Config): Draft => ({
  ...values,
  costOfAcceptance: config.costOfAcceptance,
  merchantCategoryCode: config.merchantCategoryCode,
  currencyFees: config.currencyFees
})

/** The fields of `values` that differ from `config`, as an update. */
export const changesOf = (values: FormValues, config: Config): Update => {
  const changed: Update = {}
  for (const [key, value] of Object.entries(values) as Array<[keyof FormValues, unknown]>) {
    if (config[key] !== value) Object.assign(changed, { [key]: value })
  }
  return changed
}
