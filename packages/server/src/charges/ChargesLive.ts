/**
 * The charges group: create, retrieve and list. A charge is made in three phases
 * (docs/design.md §4): (1) the fee quoted and lowered to the largest compliant one, and the
 * charge written `pending` with the processor key it will be collected under; (2) the money
 * collected through the tenant's `PaymentProcessor` with that key; (3) the charge settled with
 * its event and the idempotent response, in one transaction. A retry with the same
 * Idempotency-Key resumes the same charge (never a second payment), and the recovery sweeper
 * settles any charge left pending (Recovery.ts). A declined card is a 402 whose failed charge
 * is stored too.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ApiError, CurrentKey, Charge as Wire } from "@levy/api"
import { ComplianceRules, Estimate } from "@levy/core"
import {
  ChargeRepository,
  IdempotencyRepository,
  Ids,
  StorageError,
  type StoredCharge,
  type Tenant
} from "@levy/storage"
import { Effect, Either, Option } from "effect"
import * as Config from "../feeConfigs/Config.js"
import * as Idempotency from "../http/Idempotency.js"
import * as Listing from "../http/Listing.js"
import * as OtherMode from "../http/OtherMode.js"
import type { PaymentProcessor } from "../processors/PaymentProcessor.js"
import { PaymentProcessors } from "../processors/PaymentProcessors.js"
import { ServerApi } from "../ServerApi.js"
import * as ChargePhases from "./ChargePhases.js"
import * as ChargeWire from "./ChargeWire.js"
import * as Payment from "./Payment.js"
import * as ProcessorErrors from "./ProcessorErrors.js"

const URL_PATH = "/v1/charges"
const now = () => Math.floor(Date.now() / 1000)

/** A key taken by a request still running (the claim's lease lapsed under it: never expected). */
const keyInUse = () =>
  new ApiError.IdempotencyError({
    message:
      "A request with this Idempotency-Key is still being processed; retry after it finishes."
  })

/** The request answers what the charge as stored says: the charge, or its failure. */
const answer = (charge: StoredCharge) => {
  const error = ChargePhases.errorOf(charge)
  return error === undefined
    ? Effect.succeed(ChargeWire.toWire(charge))
    : (Effect.fail(error) as Effect.Effect<
        never,
        ApiError.CardError | ApiError.InvalidRequestError
      >)
}

export const ChargesLive = HttpApiBuilder.group(ServerApi, "charges", (handlers) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    const charges = yield* ChargeRepository
    const processors = yield* PaymentProcessors
    const ids = yield* Ids
    const idempotency = yield* IdempotencyRepository

    /** Phases 2 and 3 for a pending charge, and the answer. */
    const finish = (processor: PaymentProcessor, charge: StoredCharge, resumed: boolean) =>
      Effect.gen(function* () {
        const after = yield* ChargePhases.run(processor, charge, resumed).pipe(
          Effect.provideService(ChargeRepository, charges),
          Effect.provideService(Ids, ids),
          Effect.catchTag("ProcessorUnavailable", (e) =>
            ProcessorErrors.unavailable(e, `charge ${charge.id}`)
          )
        )
        yield* Idempotency.answered
        if (after.status === "pending") {
          // The processor has not decided yet: nothing to replay; a retry resumes the charge.
          yield* releaseClaim
          return ChargeWire.toWire(after)
        }
        return yield* answer(after)
      })

    /** Forgets the current claim (the response is not final), keeping the edge from storing it. */
    const releaseClaim = Effect.flatMap(Idempotency.currentClaim, (claim) =>
      Option.isNone(claim)
        ? Effect.void
        : idempotency.release(claim.value.tenant, claim.value.key).pipe(Effect.ignore)
    )

    /** A charge made earlier under the request's key: answer it, or resume it if pending. */
    const resume = (
      tenant: Tenant.Tenant,
      processor: PaymentProcessor,
      claim: Idempotency.Claim,
      found: StoredCharge
    ) =>
      Effect.gen(function* () {
        yield* Idempotency.sameRequest(claim, found.requestFingerprint)
        const charge =
          found.status === "pending"
            ? yield* charges.leaseCharge(tenant, found.id, Date.now() + ChargePhases.LEASE_MS)
            : found
        if (charge.status !== "pending") {
          // Settled meanwhile (by the sweeper) after this key's claim was forgotten.
          const response = ChargePhases.responseOf(charge)
          // Stored for the key whether or not the claim survived (never a defect: a 503 at worst).
          yield* idempotency.settle(tenant, claim.key, claim.fingerprint, response)
          yield* Idempotency.answered
          return yield* answer(charge)
        }
        if (charge.processor !== null && charge.processor !== processor.name) {
          return yield* new ApiError.ServiceUnavailableError({
            message: `Charge ${charge.id} is pending at the processor '${charge.processor}', which is no longer the account's processor ('${processor.name}'); it cannot be completed until that processor is configured again.`
          })
        }
        return yield* finish(processor, charge, true)
      })

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          const processor = yield* Payment.processorFor(processors, tenant)
          const claim = yield* Idempotency.currentClaim
          if (Option.isSome(claim)) {
            const found = yield* charges.findByIdempotencyKey(tenant, claim.value.key)
            if (Option.isSome(found))
              return yield* resume(tenant, processor, claim.value, found.value)
          }
          const source = payload.source ?? Payment.DEFAULT_SOURCE
          const card = yield* Payment.checkCard(processor, source, payload)
          const config = yield* Config.peek(tenant)
          const schedule = yield* Config.schedule(config).pipe(Effect.orDieWith(Config.refused))
          const {
            costOfAcceptance,
            region,
            source: _,
            customer,
            description,
            metadata,
            ...rest
          } = payload
          const ruleset = yield* Config.pinnedRuleset(rules, config)
          const quote = yield* Estimate.chargeQuote(schedule, ruleset, {
            ...rest,
            ...card,
            region: yield* Config.regionFor(config, region),
            costOfAcceptance: yield* Config.costOfAcceptancePpm(
              costOfAcceptance ?? config.costOfAcceptance
            ),
            allowUncertain: config.allowUncertain
          }).pipe(Either.mapLeft(ApiError.fromFeeError))
          yield* Payment.checkCompliant(quote, config.nonCompliant)

          // Phase 1: the charge, pending, with the key it is collected under.
          const id = yield* ids.make("ch")
          const charge: Wire.Charge = {
            ...Wire.quoteFields(quote),
            status: "pending",
            id,
            object: "charge",
            created: now(),
            livemode: tenant.livemode,
            ...(customer === undefined ? {} : { customer }),
            ...(description === undefined ? {} : { description }),
            metadata: metadata ?? {},
            cardType: card.cardType ?? null,
            amountRefunded: 0,
            refunded: false,
            billingMode: config.billingMode
          }
          const pending = yield* charges
            .beginCharge({
              ...ChargeWire.toStored(charge, tenant.accountId, source),
              processor: processor.name,
              processorKey: `levy_${id}`,
              idempotencyKey: Option.match(claim, { onNone: () => null, onSome: (c) => c.key }),
              requestFingerprint: Option.match(claim, {
                onNone: () => null,
                onSome: (c) => c.fingerprint
              }),
              processorReference: null,
              recoverAfterMs: Date.now() + ChargePhases.LEASE_MS
            })
            .pipe(Effect.catchTag("DuplicateRecord", () => Effect.fail(keyInUse())))
          return yield* finish(processor, pending, false)
        }).pipe(
          Effect.catchTags({
            StorageError: Config.unavailable,
            RecordNotFound: (e) =>
              Config.unavailable(new StorageError({ message: `${e.entity} ${e.id} vanished` }))
          })
        )
      )
      .handle("retrieve", ({ path }) =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          const found = yield* charges.get(tenant, path.id).pipe(
            Effect.catchTags({
              RecordNotFound: () =>
                OtherMode.noSuch(tenant, "charge", path.id, (other) => charges.get(other, path.id)),
              StorageError: Config.unavailable
            })
          )
          return ChargeWire.toWire(found)
        })
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          return yield* Listing.respond(
            urlParams,
            URL_PATH,
            (request) => charges.list(tenant, { ...request, customer: urlParams.customer }),
            (charge) => Effect.succeed(ChargeWire.toWire(charge))
          )
        })
      )
  })
)
