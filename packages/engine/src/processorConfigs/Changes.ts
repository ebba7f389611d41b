/**
 * Who may change the processor configuration at once, and holding a change for approval
 * (docs/design.md §4). A live-mode change decides where the money goes, so a key's (or an
 * embedding app's) save or delete waits for another key; test mode, and the account's owner on
 * the store (the CLI), apply at once. A held change is bound to the revision in force when it
 * was requested, and written with its `processor_config.change_requested` event.
 */
import type { ProcessorConfig as Wire } from "@levy/api"
import {
  DuplicateRecord,
  Ids,
  type ProcessorChangeRequest,
  type ProcessorConfig,
  ProcessorConfigRepository,
  RevisionConflict,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Clock, Effect, Option, type Schema } from "effect"
import * as Outbox from "../events/Outbox.js"
import * as Claims from "../idempotency/Claim.js"
import { ProcessorChangeAlreadyPending, ProcessorConfigContended } from "./ProcessorChangeErrors.js"
import * as ProcessorWire from "./Wire.js"

/** Who asks for a change. */
export interface Actor {
  /** A key's id, "cli", or whoever the embedding app names: never the approver too. */
  readonly by: string
  /** The account's owner on the store (the CLI): a live-mode change applies at once. */
  readonly owner?: boolean | undefined
}

/** Whether `actor`'s change of `tenant`'s configuration waits for another key. */
export const waitsForApproval = (tenant: Tenant.Tenant, actor: Actor) =>
  tenant.livemode && actor.owner !== true

/** The revision of a configuration, null for none. */
export const revisionOf = (config: Option.Option<ProcessorConfig>) =>
  Option.match(config, { onNone: () => null, onSome: (c) => c.revision })

/** Unix seconds. */
export const now = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

/** What to hold, decided on the configuration in force, and the answer that shows it. */
export interface Decision<A> {
  readonly request: Omit<ProcessorChangeRequest, "id" | "expected" | "at" | "requestedBy">
  readonly answer: (pending: Wire.ProcessorConfigChange) => A
}

/**
 * Decisions a hold may take before giving up: each retry means another configuration came into
 * force between reading it and holding the change, which only the owner's own writes can do.
 */
const ATTEMPTS = 5

/**
 * Holds the change `decide` makes of the configuration in force, bound to its revision, with
 * its event and the answer stored for `claim`, in one transaction; decided again when the
 * configuration moved in between.
 */
export const hold = <A, I, E, R>(
  tenant: Tenant.Tenant,
  actor: Actor,
  claim: Option.Option<Claims.Claim>,
  schema: Schema.Schema<A, I>,
  decide: (inForce: Option.Option<ProcessorConfig>) => Effect.Effect<Decision<A>, E, R>
) =>
  Effect.gen(function* () {
    const repo = yield* ProcessorConfigRepository
    const transactions = yield* Transactions
    const inForce = yield* repo.get(tenant)
    const { request, answer } = yield* decide(inForce)
    const expected = revisionOf(inForce)
    const id = yield* Effect.flatMap(Ids, (ids) => ids.make("pcc"))
    const at = yield* now
    return yield* transactions.run(
      Effect.gen(function* () {
        const change = yield* repo.request(tenant, {
          ...request,
          id,
          expected,
          at,
          requestedBy: actor.by
        })
        const pending = ProcessorWire.change(
          { change, credentials: request.credentials },
          "pending",
          expected
        )
        yield* Outbox.recordUnder(claim, tenant, "processor_config.change_requested", pending)
        const answered = answer(pending)
        yield* Claims.recordSuccess(claim, schema, answered)
        return answered
      })
    )
  }).pipe(
    Effect.retry({ times: ATTEMPTS - 1, while: isRevisionConflict }),
    Effect.catchIf(isRevisionConflict, () =>
      Effect.fail(new ProcessorConfigContended({ attempts: ATTEMPTS }))
    ),
    Effect.catchIf(
      (e): e is DuplicateRecord => e instanceof DuplicateRecord,
      () => Effect.fail(new ProcessorChangeAlreadyPending())
    )
  )

const isRevisionConflict = (e: unknown): e is RevisionConflict => e instanceof RevisionConflict
