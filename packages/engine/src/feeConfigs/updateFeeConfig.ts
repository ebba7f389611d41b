/**
 * Changing the fee configuration (docs/design.md §6), free of HTTP: the change merged over
 * the configuration in force and checked (a known ruleset pin, a schedule the engine accepts,
 * compliant in the account's `defaultRegion`); in test mode, or when it raises no fee, applied
 * at once with its `fee_config.updated` event; in live mode a change that raises a fee some
 * shopper can pay is held until someone other than `requestedBy` approves it
 * (approveFeeChange.ts), bound to the version it was judged against. Either way the answer is
 * stored for the request's key with the write.
 */
import { FeeConfig, type FeeConfigUpdate } from "@levy/api"
import { ComplianceRules, type FeeError } from "@levy/core"
import {
  type EventRepository,
  type FeeConfigChange,
  FeeConfigRepository,
  type IdempotencyRepository,
  Ids,
  type StorageError,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, Option } from "effect"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import * as Changes from "./Changes.js"
import * as Config from "./Config.js"
import {
  type DefaultRegionNotCompliant,
  FeeChangeAlreadyPending,
  FeeConfigContended,
  type RulesetVersionUnknown
} from "./FeeConfigErrors.js"
import * as FeeRaise from "./FeeRaise.js"

export type UpdateFeeConfigError =
  | RulesetVersionUnknown
  | FeeError
  | DefaultRegionNotCompliant
  | FeeChangeAlreadyPending
  | FeeConfigContended
  | StorageError

export type FeeConfigServices =
  | ComplianceRules
  | EventRepository
  | FeeConfigRepository
  | IdempotencyRepository
  | Ids
  | Transactions

const now = () => Math.floor(Date.now() / 1000)

/**
 * Decisions a change may take before giving up: each retry means another change was applied
 * while this one was decided, which the fee-configuration write limit keeps rare.
 */
const ATTEMPTS = 5

/**
 * Changes the configuration of `tenant` by `input`, requested `by` (a key id, or whoever the
 * embedding app names), under `claim` when the request carries an Idempotency-Key. The change
 * is decided (checked, and in live mode judged a raise or not) against one version of the
 * configuration and written only if the configuration is still at that version, else decided
 * again on the new one: two changes decided at once never combine into one neither was judged
 * as (docs/design.md §6).
 */
export const updateFeeConfig = (
  tenant: Tenant.Tenant,
  input: FeeConfigUpdate.FeeConfigUpdate,
  by: string,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<Written.Written<FeeConfig.FeeConfig>, UpdateFeeConfigError, FeeConfigServices> =>
  decideAndWrite(tenant, input, by, claim).pipe(
    Effect.retry({ times: ATTEMPTS - 1, while: (e) => e._tag === "VersionConflict" }),
    Effect.catchTag("VersionConflict", () => new FeeConfigContended({ attempts: ATTEMPTS }))
  )

/** One decision against the version in force, and its compare-and-set write. */
const decideAndWrite = (
  tenant: Tenant.Tenant,
  input: FeeConfigUpdate.FeeConfigUpdate,
  by: string,
  claim: Option.Option<Claims.Claim>
) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    const repo = yield* FeeConfigRepository
    const { config: before, version } = yield* Config.versioned(tenant)
    const next = Config.fromJson(Config.toJson({ ...before, ...input }))
    yield* Changes.checkPin(next)
    yield* Config.scheduleOf(before).pipe(Effect.orDieWith(Config.refused))
    yield* Changes.checkDefaultRegion(next, yield* Config.scheduleOf(next))
    const change = {
      id: yield* Effect.flatMap(Ids, (ids) => ids.make("fcc")),
      changes: Config.toJson(input),
      requestedBy: by,
      at: now(),
      expected: version
    }
    if (tenant.livemode && (yield* FeeRaise.raisesFee(rules, before, next))) {
      const transactions = yield* Transactions
      const heldWire = (held: FeeConfigChange) =>
        Config.toWire(rules, tenant, before, {
          pending: Option.some(held),
          version,
          updated: false
        })
      // The held change and the response to replay for it commit together.
      const held = yield* transactions
        .run(
          Effect.tap(repo.request(tenant, change), (requested) =>
            Claims.recordSuccess(claim, FeeConfig.FeeConfig, heldWire(requested))
          )
        )
        .pipe(Effect.catchTag("DuplicateRecord", () => new FeeChangeAlreadyPending()))
      return Written.stored(claim, heldWire(held))
    }
    const pending = yield* repo.pending(tenant)
    const applied = yield* Changes.applying(
      tenant,
      // The change's id is fresh: a clash is a defect.
      repo
        .apply(tenant, { ...change, config: Config.toJson(next) })
        .pipe(Effect.catchTag("DuplicateRecord", Effect.die)),
      pending,
      claim
    )
    return Written.stored(claim, applied)
  })
