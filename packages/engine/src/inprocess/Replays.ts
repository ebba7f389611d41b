/**
 * A stored response replayed as what the first call answered, at every door: a success decoded
 * by its wire schema (in-process; the HTTP edge sends its body as it is); a stored failure
 * (only a charge or refund the processor refused is stored as one: `isStored`) as that
 * workflow's own error, read back from the record made under the key, which each door words as
 * it worded the first answer.
 */
import { Charge, Refund } from "@levy/api"
import {
  ChargeRepository,
  type ChargeRepositoryService,
  type StorageError,
  type StoredFailure,
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

/** The record `find` reads under `key`, failed, as its workflow's error `errorOf`. */
const failedUnder = <A extends { readonly status: string }, E>(
  what: string,
  key: string,
  find: (charges: ChargeRepositoryService) => Effect.Effect<Option.Option<A>, StorageError>,
  errorOf: (record: A) => E
): Effect.Effect<never, E | StorageError, ChargeRepository> =>
  Effect.flatMap(ChargeRepository, (charges) =>
    Effect.flatMap(find(charges), (found) =>
      Option.isSome(found) && found.value.status === "failed"
        ? Effect.fail(errorOf(found.value))
        : missing(what, key)
    )
  )

/** The `ChargeFailed` of the charge made under `key`. */
const failedCharge = (tenant: Tenant.Tenant, key: string) =>
  failedUnder(
    "failed charge",
    key,
    (charges) => charges.findByIdempotencyKey(tenant, key),
    (charge) => new ChargeFailed({ charge })
  )

/** The `RefundFailed` of the refund made under `key`. */
const failedRefund = (tenant: Tenant.Tenant, key: string) =>
  failedUnder(
    "failed refund",
    key,
    (charges) => charges.findRefundByIdempotencyKey(tenant, key),
    (refund) => new RefundFailed({ refund })
  )

/** The workflow's error a key stored as its failure. */
export const failure = (
  tenant: Tenant.Tenant,
  key: string,
  stored: StoredFailure
): Effect.Effect<never, ChargeFailed | RefundFailed | StorageError, ChargeRepository> =>
  stored.record === "charge" ? failedCharge(tenant, key) : failedRefund(tenant, key)

/** The charge, or the `ChargeFailed`, a charge's key stored. */
export const charge = (
  tenant: Tenant.Tenant,
  key: string,
  response: StoredResponse
): Effect.Effect<Charge.Charge, ChargeFailed | StorageError, ChargeRepository> =>
  response.outcome === "succeeded"
    ? Effect.orDie(decodeCharge(response.body))
    : failedCharge(tenant, key)

/** The refund, or the `RefundFailed`, a refund's key stored. */
export const refund = (
  tenant: Tenant.Tenant,
  key: string,
  response: StoredResponse
): Effect.Effect<Refund.Refund, RefundFailed | StorageError, ChargeRepository> =>
  response.outcome === "succeeded"
    ? Effect.orDie(decodeRefund(response.body))
    : failedRefund(tenant, key)

/**
 * The answer a key stored for a write that never stores a failure (the fee configuration,
 * webhook endpoints, the processor configuration): its body decoded by the answer's schema.
 */
export const success =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (_tenant: Tenant.Tenant, key: string, response: StoredResponse): Effect.Effect<A> =>
    response.outcome === "succeeded"
      ? Effect.orDie(Schema.decodeUnknown(schema)(response.body))
      : Effect.dieMessage(`Idempotency-Key ${key} stored a failure for a write that stores none`)
