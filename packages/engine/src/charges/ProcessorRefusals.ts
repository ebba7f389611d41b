/**
 * What a processor's refusal tells the caller (docs/design.md §4), in words every door shows
 * alike and a failed charge keeps: a source the processor cannot use names the request's
 * `source`; a refusal of a field of the request names that field; a refusal of the account's
 * configuration says what to fix there, since only the account's owner can (saying Levy
 * refused it when Levy did, before asking the processor).
 */
import { title } from "../processorConfigs/Connect.js"
import type { ProcessorRefused, SourceInvalid } from "../processors/PaymentProcessor.js"

/** A refusal's code, words and the request's field it names, if any. */
export interface Refusal {
  readonly code: string
  readonly message: string
  readonly param?: string | undefined
}

export const sourceInvalid = (error: SourceInvalid): Refusal => ({
  code: "source_invalid",
  param: "source",
  message: `No such source: '${error.source}'. ${error.message}`
})

/** A processor's refusal: of the request's own content (`param`), else of the configuration. */
export const refused = (error: ProcessorRefused): Refusal =>
  error.param !== undefined
    ? {
        code: "parameter_invalid",
        param: error.param,
        message: `The payment processor (${error.processor}) refused the request's ${error.param}: ${error.message}${error.code === undefined ? "" : ` (${error.code})`}. Change the request's ${error.param} and retry with a new Idempotency-Key; no money moved.`
      }
    : configurationRefused(error)

const configurationRefused = (error: ProcessorRefused): Refusal => ({
  code: "processor_refused",
  message: error.byLevy
    ? `Levy refused to send this to ${title(error.processor)}${error.code === undefined ? "" : ` (${error.code})`}: ${error.message} Fix the account's processor configuration${error.setting === undefined ? "" : ` (${error.setting})`} with POST /v1/processor-config and retry; no money moved.`
    : `The payment processor (${error.processor}) refused this account's configuration: ${error.message}${error.code === undefined ? "" : ` (${error.code})`}. Fix the processor's credentials or account settings (at the processor, then in Levy's processor configuration) and retry; no money moved.`
})
