/**
 * The payment processor configured for the key's account and mode (`object:
 * "processor_config"`, docs/design.md §4): which processor charges, its credentials masked
 * (never the secrets themselves), and the URL where the processor's notifications go.
 */
import { Schema } from "effect"
import { Livemode, oneOf, Timestamp } from "./Field.js"

/** The processors Levy can charge through. */
export const PROCESSORS = ["stripe", "adyen"] as const

/** A processor's name. */
export const ProcessorName = oneOf(...PROCESSORS).annotations({
  description: "The payment processor: stripe or adyen."
})
export type ProcessorName = typeof ProcessorName.Type

/** A credential a processor needs, as a form asks for it. */
export interface CredentialField {
  readonly name: string
  readonly label: string
  /** Where to find it in the processor's own dashboard. */
  readonly where: string
  readonly required: boolean
  /** A secret (typed into a password field), not an identifier. */
  readonly secret: boolean
  /** The secret the processor's notifications are signed with. */
  readonly signsNotifications: boolean
}

/**
 * Each processor's credentials, in the order a form asks for them. The server's processor
 * definitions take exactly these names (a server test holds them equal).
 */
export const CREDENTIAL_FIELDS: Readonly<Record<ProcessorName, ReadonlyArray<CredentialField>>> = {
  stripe: [
    {
      name: "secretKey",
      label: "Secret or restricted key",
      where:
        "Stripe Dashboard → Developers → API keys: rk_live_… / sk_live_… in live mode, rk_test_… / sk_test_… in test mode.",
      required: true,
      secret: true,
      signsNotifications: false
    },
    {
      name: "webhookSecret",
      label: "Webhook signing secret",
      where:
        "Stripe Dashboard → Developers → Webhooks → the endpoint for the webhook URL this page shows once the key is saved → Signing secret (whsec_…). Save again with it: until then Stripe's notifications are refused.",
      required: false,
      secret: true,
      signsNotifications: true
    }
  ],
  adyen: [
    {
      name: "apiKey",
      label: "API key",
      where:
        "Customer Area → Developers → API credentials → a credential with the Checkout webservice role → API key.",
      required: true,
      secret: true,
      signsNotifications: false
    },
    {
      name: "merchantAccount",
      label: "Merchant account",
      where: "The merchant account payments are made on (top of the Customer Area).",
      required: true,
      secret: false,
      signsNotifications: false
    },
    {
      name: "hmacKey",
      label: "HMAC key",
      where:
        "Customer Area → Developers → Webhooks → your standard webhook for this account's webhook URL → HMAC key. Save the other fields first to learn that URL.",
      required: false,
      secret: true,
      signsNotifications: true
    },
    {
      name: "liveEndpointUrlPrefix",
      label: "Live endpoint URL prefix",
      where:
        "Live mode only: Customer Area → Developers → API URLs (e.g. 1797a841fbb37ca7-YourCompany).",
      required: false,
      secret: false,
      signsNotifications: false
    },
    {
      name: "returnUrl",
      label: "Return URL",
      where: "Optional: where a shopper would return after a redirect (Levy declines redirects).",
      required: false,
      secret: false,
      signsNotifications: false
    }
  ]
}

/** The processor configuration. */
export const ProcessorConfig = Schema.Struct({
  object: Schema.Literal("processor_config"),
  processor: ProcessorName,
  livemode: Livemode,
  credentials: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description:
      'Each saved credential by name, masked ("sk_live_…4242"): the secrets are never returned.'
  }),
  surcharge: Schema.Boolean.annotations({
    description: "Whether the fee is also sent in the processor's surcharge field."
  }),
  webhookUrl: Schema.String.annotations({
    description:
      "The path on this server to register with the processor for its notifications: /v1/processor-webhooks/{account}/{test|live}/{processor}."
  }),
  created: Timestamp,
  updated: Timestamp
}).annotations({ identifier: "ProcessorConfig" })
export type ProcessorConfig = typeof ProcessorConfig.Type

/** The answer to deleting the configuration. */
export const DeletedProcessorConfig = Schema.Struct({
  object: Schema.Literal("processor_config"),
  processor: ProcessorName,
  livemode: Livemode,
  deleted: Schema.Literal(true)
}).annotations({ identifier: "DeletedProcessorConfig" })
export type DeletedProcessorConfig = typeof DeletedProcessorConfig.Type
