/**
 * The processors an account can configure (docs/design.md §4), by the name used in
 * `/v1/processor-config`, the CLI and processor-webhook URLs.
 */
import * as Adyen from "./adyen/AdyenProcessor.js"
import type { ProcessorDefinition } from "./PaymentProcessor.js"
import * as Stripe from "./stripe/StripeProcessor.js"

/** Every configurable processor, in the order they are offered. */
export const all: ReadonlyArray<ProcessorDefinition> = [Stripe.definition, Adyen.definition]

/** The names, for messages: "stripe, adyen". */
export const names = all.map((d) => d.name)

/** The definition named `name`, if Levy has one. */
export const find = (name: string): ProcessorDefinition | undefined =>
  all.find((d) => d.name === name)
