/**
 * A stored response replayed in-process as what the first call answered: a success decoded by
 * its wire schema; a stored failure (only a charge or refund the processor refused is stored
 * as one: `ApiErrors.isStored`) as that workflow's own error, read back from the record made
 * under the key.
 */
import { Charge, Refund } from "@levy/api"
import {
  ChargeRepository,
  type StorageError,
  type StoredCharge,
  type StoredRefund,
  type StoredResponse,
  type Tenant
} from "@levy/storage"
import { Effect, Option, Schema } from "effect"
import { ChargeFailed } from "../charges/ChargeErrors.js"
import { RefundFailed } from "../refunds/RefundErrors.js"

const decodeCharge = Schema.decodeUnknown(Charge.Charge)
const decodeRefund = Schema.decodeUnknown(Refund.Refund)

/** The stored record was written by this server: one it cannot read back is a defect. */
const missing = (what: string, key: string) =>
  Effect.dieMessage(`stored failure under Idempotency-Key ${key} has no ${what}`)

/** The charge, or the `ChargeFailed`, a charge's key stored. */
export const charge = (
  tenant: Tenant.Tenant,
  key: string,
  response: StoredResponse
): Effect.Effect<Charge.Charge, ChargeFailed | StorageError, ChargeRepository> =>
  response.status < 300
    ? Effect.orDie(decodeCharge(response.body))
    : Effect.flatMap(ChargeRepository, (charges) =>
        Effect.flatMap(charges.findByIdempotencyKey(tenant, key), (found) =>
          Option.isSome(found) && found.value.status === "failed"
            ? Effect.fail(new ChargeFailed({ charge: found.value as StoredCharge }))
            : missing("failed charge", key)
        )
      )

/** The refund, or the `RefundFailed`, a refund's key stored. */
export const refund = (
  tenant: Tenant.Tenant,
  key: string,
  response: StoredResponse
): Effect.Effect<Refund.Refund, RefundFailed | StorageError, ChargeRepository> =>
  response.status < 300
    ? Effect.orDie(decodeRefund(response.body))
    : Effect.flatMap(ChargeRepository, (charges) =>
        Effect.flatMap(charges.findRefundByIdempotencyKey(tenant, key), (found) =>
          Option.isSome(found) && found.value.status === "failed"
            ? Effect.fail(new RefundFailed({ refund: found.value as StoredRefund }))
            : missing("failed refund", key)
        )
      )

/**
 * The answer a key stored for a write that never stores a failure (the fee configuration,
 * webhook endpoints, the processor configuration): its body decoded by the answer's schema.
 */
export const success =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (_tenant: Tenant.Tenant, _key: string, response: StoredResponse): Effect.Effect<A> =>
    Effect.orDie(Schema.decodeUnknown(schema)(response.body))
