/**
 * Saving the payment processor of the tenant's account and mode (docs/design.md §4), free of
 * HTTP: the credentials checked against the processor's definition and then with the
 * processor itself (Connect.ts), saved sealed, and answered masked; the stored answer for the
 * request's key is that masked one, so a credential reaches neither an answer nor a record.
 * The processor is called at the server's API base URL for it (`ProcessorApiBaseUrls`).
 */
import { ProcessorConfig, type ProcessorConfigCreate } from "@levy/api"
import {
  type IdempotencyRepository,
  ProcessorConfigRepository,
  type StorageError,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Clock, Effect, Option } from "effect"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import * as Connect from "./Connect.js"
import * as Wire from "./Wire.js"

export type SaveProcessorConfigError =
  | Connect.CredentialsInvalid
  | Connect.CredentialsRefused
  | Connect.ProcessorUnreachable
  | StorageError

export type ProcessorConfigServices =
  | ProcessorConfigRepository
  | IdempotencyRepository
  | Transactions

export const saveProcessorConfig = (
  tenant: Tenant.Tenant,
  input: ProcessorConfigCreate.ProcessorConfigCreate,
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
    const at = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const repo = yield* ProcessorConfigRepository
    const transactions = yield* Transactions
    const answer = yield* transactions.run(
      Effect.gen(function* () {
        const saved = yield* repo.save(tenant, { ...request, at })
        const answer = Wire.config({ config: saved, credentials: request.credentials })
        yield* Claims.recordSuccess(claim, ProcessorConfig.ProcessorConfig, answer)
        return answer
      })
    )
    return Written.stored(claim, answer)
  })
