/**
 * An API key as the API shows it (`object: "api_key"`): its id, kind, mode, name, last four
 * characters and use, never the key itself (docs/design.md §5). Listed and revoked at
 * `/v1/keys` with a secret key of the same account and mode.
 */
import { Schema } from "effect"
import { Livemode, Timestamp } from "./Field.js"

export const ApiKey = Schema.Struct({
  id: Schema.String.annotations({ description: "key_…" }),
  object: Schema.Literal("api_key"),
  kind: Schema.Literal("secret", "publishable"),
  livemode: Livemode,
  name: Schema.NullOr(Schema.String).annotations({
    description: "The kind name (secretDev, …) or the label given by `levy keys create`."
  }),
  last4: Schema.String,
  created: Timestamp,
  lastUsed: Schema.NullOr(Timestamp),
  revoked: Schema.Boolean
}).annotations({ identifier: "ApiKey" })
export type ApiKey = typeof ApiKey.Type
