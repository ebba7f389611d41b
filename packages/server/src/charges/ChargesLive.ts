/**
 * The charges group: create (the fee quoted and lowered to the largest compliant one, the
 * money collected through the tenant's `PaymentProcessor`, the charge, its event and its
 * idempotent response written together), retrieve and list. A declined card is a 402 whose
 * failed charge is stored too (docs/design.md §4).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ApiError, CurrentKey, Dispute as DisputeWire, Charge as Wire } from "@levy/api"
import { ComplianceRules, Estimate } from "@levy/core"
import {
  ChargeRepository,
  type Dispute,
  Ids,
  type Json,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, Either, Option, Schema } from "effect"
import * as Outbox from "../events/Outbox.js"
import * as Config from "../feeConfigs/Config.js"
import * as Idempotency from "../http/Idempotency.js"
import * as Listing from "../http/Listing.js"
import * as OtherMode from "../http/OtherMode.js"
import { ServerApi } from "../ServerApi.js"
import * as ChargeWire from "./ChargeWire.js"
import * as Payment from "./Payment.js"
import { type CollectOutcome, PaymentProcessors } from "./PaymentProcessor.js"

const URL_PATH = "/v1/charges"
const now = () => Math.floor(Date.now() / 1000)
const encodeCharge = Schema.encodeSync(Wire.Charge)
const encodeDispute = Schema.encodeSync(DisputeWire.Dispute)

/** The charge's outcome fields and, for a decline, the 402 to answer. */
const settled = (outcome: CollectOutcome, chargeId: string) =>
  outcome._tag === "Succeeded"
    ? { status: "succeeded" as const, transactions: outcome.transactions, declined: undefined }
    : {
        status: "failed" as const,
        failureCode: outcome.failureCode,
        failureMessage: outcome.failureMessage,
        declined: new ApiError.CardError({
          message: outcome.failureMessage,
          declineCode: outcome.declineCode,
          charge: chargeId
        })
      }

export const ChargesLive = HttpApiBuilder.group(ServerApi, "charges", (handlers) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    const charges = yield* ChargeRepository
    const processors = yield* PaymentProcessors
    const transactions = yield* Transactions
    const ids = yield* Ids

    /** Opens the dispute a processor reported with the charge, and its event. */
    const openDispute = (tenant: Tenant.Tenant, charge: Wire.Charge, reason: string) =>
      Effect.gen(function* () {
        const dispute: Dispute = {
          id: yield* ids.make("dp"),
          accountId: tenant.accountId,
          livemode: tenant.livemode,
          chargeId: charge.id,
          amount: charge.totalAmount,
          status: "needs_response",
          reason,
          created: charge.created,
          updated: charge.created
        }
        yield* charges.openDispute(dispute)
        const wire: DisputeWire.Dispute = {
          id: dispute.id,
          object: "dispute",
          charge: charge.id,
          amount: dispute.amount,
          currency: charge.currency,
          status: dispute.status,
          reason,
          created: dispute.created,
          livemode: dispute.livemode
        }
        yield* Outbox.record(tenant, "dispute.created", encodeDispute(wire), dispute.created)
      })

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          const processor = yield* Payment.processorFor(processors, tenant)
          const source = payload.source ?? Payment.DEFAULT_SOURCE
          const card = yield* Payment.checkCard(processor, source, payload)
          const { config } = yield* Config.current(tenant)
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

          const id = yield* ids.make("ch")
          const created = now()
          const outcome = yield* processor.collect({
            chargeId: id,
            source,
            currency: quote.currency,
            parts: Payment.collectParts(config.billingMode, quote)
          })
          const { declined, ...result } = settled(outcome, id)
          const charge: Wire.Charge = {
            ...Wire.quoteFields(quote),
            ...result,
            id,
            object: "charge",
            created,
            livemode: tenant.livemode,
            ...(customer === undefined ? {} : { customer }),
            ...(description === undefined ? {} : { description }),
            metadata: metadata ?? {},
            cardType: card.cardType ?? null,
            amountRefunded: 0,
            refunded: false,
            billingMode: config.billingMode
          }
          const body = encodeCharge(charge)
          const claim = yield* Idempotency.currentClaim
          const response =
            declined === undefined ? { status: 200, body } : ApiError.toResponse(declined)
          const write = charges.create({
            charge: ChargeWire.toStored(charge, tenant.accountId, source),
            event: yield* Outbox.make(
              tenant,
              declined === undefined ? "charge.succeeded" : "charge.failed",
              body,
              created
            ),
            idempotency: Option.match(claim, {
              onNone: () => undefined,
              onSome: (c) => ({ key: c.key, response: response as { status: number; body: Json } })
            })
          })
          const dispute = outcome._tag === "Succeeded" ? outcome.dispute : Option.none()
          yield* (
            Option.isSome(dispute)
              ? transactions.run(
                  Effect.zipRight(write, openDispute(tenant, charge, dispute.value.reason))
                )
              : write
          ).pipe(
            Effect.catchTags({
              DuplicateRecord: Effect.die,
              RecordNotFound: Effect.die,
              StorageError: Config.unavailable
            })
          )
          if (Option.isSome(claim)) claim.value.recorded = true
          if (declined !== undefined) return yield* declined
          return charge
        })
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
