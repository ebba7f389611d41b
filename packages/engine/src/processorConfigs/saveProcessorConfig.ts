/**
 * Saving the payment processor of the tenant's account and mode (docs/design.md §4), free of
 * HTTP: the credentials checked against the processor's definition and then with the
 * processor itself (Connect.ts), then saved sealed with its `processor_config.updated` event —
 * or, in live mode, held until another key approves it (Changes.ts: it decides where the money
 * goes). Answered masked; the stored answer for the request's key is that masked one, so a
 * credential reaches neither an answer, an event nor a record in plain text. The processor is
 * called at the server's API base URL for it (`ProcessorApiBaseUrls`).
 */
import { ProcessorConfig, type ProcessorConfigCreate } from "@levy/api"
import {
  type EventRepository,
  type IdempotencyRepository,
  type Ids,
  ProcessorConfigRepository,
  type StorageError,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, Option } from "effect"
import * as Outbox from "../events/Outbox.js"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import * as Changes from "./Changes.js"
import * as Connect from "./Connect.js"
import type {
  ProcessorChangeAlreadyPending,
  ProcessorConfigContended
} from "./ProcessorChangeErrors.js"
import * as Wire from "./Wire.js"

export type SaveProcessorConfigError =
  | Connect.CredentialsInvalid
  | Connect.CredentialsRefused
  | Connect.ProcessorUnreachable
  | ProcessorChangeAlreadyPending
  | ProcessorConfigContended
  | StorageError

export type ProcessorConfigServices =
  | ProcessorConfigRepository
  | IdempotencyRepository
  | EventRepository
  | Ids
  | Transactions

export const saveProcessorConfig = (
  tenant: Tenant.Tenant,
  input: ProcessorConfigCreate.ProcessorConfigCreate,
  actor: Changes.Actor,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<
  Written.Written<ProcessorConfig.ProcessorConfig>,
  SaveProcessorConfigError,
  ProcessorConfigServices
> =>
  Effect.gen(function* () {
    const request = yield* Connect.verify(tenant, {
      processor: input.processor,
      credentials: input.credentials,
      surcharge: input.surcharge ?? false
    })
    const answer = Changes.waitsForApproval(tenant, actor)
      ? yield* Changes.hold(tenant, actor, claim, ProcessorConfig.ProcessorConfig, () =>
          Effect.succeed({
            request: { action: "save", ...request },
            answer: (pending) => Wire.held(tenant, request, pending)
          })
        )
      : yield* apply(tenant, request, claim)
    return Written.stored(claim, answer)
  })

/** Saved at once with its event and the answer stored for `claim`, in one transaction. */
const apply = (
  tenant: Tenant.Tenant,
  request: Connect.Request,
  claim: Option.Option<Claims.Claim>
) =>
  Effect.gen(function* () {
    const at = yield* Changes.now
    const repo = yield* ProcessorConfigRepository
    return yield* Effect.flatMap(Transactions, (transactions) =>
      transactions.run(
        Effect.gen(function* () {
          const saved = yield* repo.save(tenant, { ...request, at })
          const answer = Wire.config({ config: saved, credentials: request.credentials })
          yield* Outbox.recordUnder(claim, tenant, "processor_config.updated", answer)
          yield* Claims.recordSuccess(claim, ProcessorConfig.ProcessorConfig, answer)
          return answer
        })
      )
    )
  })
