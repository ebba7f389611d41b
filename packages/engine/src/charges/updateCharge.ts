/**
 * Updating a charge's description and metadata (docs/design.md §4), free of HTTP, with Stripe's
 * semantics (ChargeNotes.ts). The new notes are written only over the notes they were made
 * from (a compare-and-set), so two updates at once each keep their keys; the answer is stored
 * for the request's key in the same transaction. Levy has no `charge.updated` event type, so
 * no event is written: the merchant made the change and has the answer.
 */
import { Charge, type ChargeUpdate } from "@levy/api"
import {
  ChargeRepository,
  type IdempotencyRepository,
  type StorageError,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, Either, type Option } from "effect"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import {
  ChargeContended,
  ChargeMetadataInvalid,
  type ChargeNotFound,
  ChargePending
} from "./ChargeErrors.js"
import * as ChargeNotes from "./ChargeNotes.js"
import * as ChargeWire from "./ChargeWire.js"
import * as TenantCharge from "./TenantCharge.js"

export type UpdateChargeError =
  | ChargeNotFound
  | ChargePending
  | ChargeMetadataInvalid
  | ChargeContended
  | StorageError

export type UpdateChargeServices = ChargeRepository | IdempotencyRepository | Transactions

/** How often an update is made again; each time means another update of the charge came first. */
const STALE_RETRIES = 10

/** One attempt: read, merge, write over what was read, store the answer. */
const attempt = (
  tenant: Tenant.Tenant,
  id: string,
  input: ChargeUpdate.ChargeUpdate,
  claim: Option.Option<Claims.Claim>
) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    const current = yield* TenantCharge.get(tenant, id, "id")
    if (current.status === "pending") return yield* new ChargePending({ chargeId: id })
    const next = ChargeNotes.after(current, input)
    if (Either.isLeft(next)) return yield* new ChargeMetadataInvalid({ error: next.left })
    const edited = yield* charges.editNotes(tenant, id, current, next.right).pipe(
      // Gone between the read and the write: charges are never deleted.
      Effect.catchTag("RecordNotFound", (e) => Effect.dieMessage(`charge ${e.id} vanished`))
    )
    const wire = ChargeWire.toWire(edited)
    yield* Claims.recordSuccess(claim, Charge.Charge, wire)
    return wire
  })

/**
 * Updates charge `id` of `tenant` with `input`, under `claim` when the request carries an
 * Idempotency-Key. The charge as the wire shows it, and what was done with the claim.
 */
export const updateCharge = (
  tenant: Tenant.Tenant,
  id: string,
  input: ChargeUpdate.ChargeUpdate,
  claim: Option.Option<Claims.Claim>
): Effect.Effect<Written.Written<Charge.Charge>, UpdateChargeError, UpdateChargeServices> =>
  Effect.flatMap(Transactions, (transactions) =>
    transactions.run(attempt(tenant, id, input, claim)).pipe(
      Effect.retry({ while: (e) => e._tag === "StaleCharge", times: STALE_RETRIES }),
      Effect.catchTag("StaleCharge", (e) => Effect.fail(new ChargeContended(e)))
    )
  ).pipe(Effect.map((wire) => Written.stored(claim, wire)))
