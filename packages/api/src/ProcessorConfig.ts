/**
 * The payment processor configured for the key's account and mode (`object:
 * "processor_config"`, docs/design.md §4): which processor charges, its credentials masked
 * (never the secrets themselves), and the URL where the processor's notifications go; and a
 * change to it held in live mode until another secret key approves it
 * (`object: "processor_config_change"`).
 */
import { Schema } from "effect"
import { Livemode, oneOf, PrefixedId, Timestamp } from "./Field.js"

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

/** Credentials by name, each masked ("sk_live_…4242"): the secrets are never returned. */
const MaskedCredentials = Schema.Record({ key: Schema.String, value: Schema.String })

/** A held change's id, `pcc_…`. */
export const ProcessorConfigChangeId = PrefixedId("pcc")

/**
 * A live-mode change of the processor configuration (a save or a delete) held until another
 * secret key approves it: it decides where the money goes.
 */
export const ProcessorConfigChange = Schema.Struct({
  object: Schema.Literal("processor_config_change"),
  id: ProcessorConfigChangeId,
  action: oneOf("save", "delete").annotations({
    description: "save: replace the configuration (or make the first); delete: remove it."
  }),
  processor: ProcessorName.annotations({
    description: "The processor it saves, or the one it deletes."
  }),
  livemode: Livemode,
  credentials: Schema.optional(
    MaskedCredentials.annotations({
      description:
        "A save's credentials, masked as the configuration shows them, so the approver can tell which processor account the money would go to."
    })
  ),
  surcharge: Schema.Boolean.annotations({
    description: "A save's surcharge setting (false for a delete)."
  }),
  status: oneOf("pending", "applied", "cancelled").annotations({
    description:
      "pending until approved (applied) or cancelled; the answers to approve and cancel show it resolved."
  }),
  stale: Schema.Boolean.annotations({
    description:
      "true when the configuration changed after this change was requested: it was asked against a configuration no longer in force, so it can no longer be approved (409 processor_config_change_stale); cancel it and request it again."
  }),
  requestedAt: Timestamp
}).annotations({ identifier: "ProcessorConfigChange" })
export type ProcessorConfigChange = typeof ProcessorConfigChange.Type

/** The processor configuration. */
export const ProcessorConfig = Schema.Struct({
  object: Schema.Literal("processor_config"),
  processor: ProcessorName,
  livemode: Livemode,
  credentials: MaskedCredentials.annotations({
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
  updated: Timestamp,
  applied: Schema.optional(
    Schema.Boolean.annotations({
      description:
        "false in the answer to a live-mode save held for approval: this is the configuration requested, not the one in force (see pendingChange). Absent otherwise."
    })
  ),
  pendingChange: Schema.optional(
    ProcessorConfigChange.annotations({
      description: "A live-mode change held until another secret key approves it."
    })
  )
}).annotations({ identifier: "ProcessorConfig" })
export type ProcessorConfig = typeof ProcessorConfig.Type

/** The answer to deleting the configuration. */
export const DeletedProcessorConfig = Schema.Struct({
  object: Schema.Literal("processor_config"),
  processor: ProcessorName,
  livemode: Livemode,
  deleted: Schema.Boolean.annotations({
    description:
      "true when removed; false in live mode, where the deletion is held for approval by another secret key (pendingChange)."
  }),
  pendingChange: Schema.optional(ProcessorConfigChange)
}).annotations({ identifier: "DeletedProcessorConfig" })
export type DeletedProcessorConfig = typeof DeletedProcessorConfig.Type
