/**
 * Creating a charge (docs/design.md §4), free of HTTP: (1) the fee quoted and lowered to the
 * largest compliant one, and the charge written `pending` with the processor key it will be
 * collected under; (2) the money collected through the tenant's `PaymentProcessor` with that
 * key; (3) the charge settled with its event and the response for the request's key, in one
 * transaction (ChargePhases.ts). A request under a key that already made a charge resumes that
 * charge (never a second payment); the recovery sweeper settles any charge left pending
 * (Recovery.ts). A declined card fails with `ChargeFailed`, the failed charge stored too.
 */
import { type ChargeCreate, Charge as Wire } from "@levy/api"
import { ComplianceRules, Estimate, type FeeError } from "@levy/core"
import {
  ChargeRepository,
  type FeeConfigRepository,
  IdempotencyKeyInUse,
  type IdempotencyKeyReused,
  IdempotencyRepository,
  Ids,
  type Signer,
  StorageError,
  type StoredCharge,
  type Tenant
} from "@levy/storage"
import { Effect, Option } from "effect"
import * as Payment from "../estimates/Payment.js"
import type {
  CardMismatch,
  FeeNotCompliant,
  ProcessorNotConfigured
} from "../estimates/PaymentErrors.js"
import {
  type EstimateMismatch,
  EstimateRefused,
  EstimateRequired
} from "../estimates/QuoteErrors.js"
import * as Config from "../feeConfigs/Config.js"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import type {
  PaymentProcessor,
  ProcessorRefused,
  ProcessorUnavailable,
  SourceInvalid
} from "../processors/PaymentProcessor.js"
import { PaymentProcessors } from "../processors/PaymentProcessors.js"
import { ChargeFailed, OutcomeUnknown, ProcessorChanged } from "./ChargeErrors.js"
import * as ChargePhases from "./ChargePhases.js"
import * as ChargeWire from "./ChargeWire.js"
import * as Honoured from "./Honoured.js"

export type CreateChargeError =
  | ProcessorNotConfigured
  | CardMismatch
  | FeeNotCompliant
  | FeeError
  | SourceInvalid
  | ProcessorRefused
  | ProcessorUnavailable
  | OutcomeUnknown
  | ChargeFailed
  | ProcessorChanged
  | IdempotencyKeyReused
  | IdempotencyKeyInUse
  | EstimateRefused
  | EstimateMismatch
  | EstimateRequired
  | StorageError

export type CreateChargeServices =
  | ChargeRepository
  | FeeConfigRepository
  | IdempotencyRepository
  | Ids
  | PaymentProcessors
  | ComplianceRules
  | Signer

const now = () => Math.floor(Date.now() / 1000)

/** What the charge as stored answers: the charge, or its failure. */
const answer = (claim: Option.Option<Claims.Claim>, charge: StoredCharge) =>
  charge.status === "failed"
    ? Effect.fail(new ChargeFailed({ charge }))
    : Effect.succeed(Written.stored(claim, ChargeWire.toWire(charge)))

/** Phases 2 and 3 for a pending charge, and the answer. */
const finish = (
  processor: PaymentProcessor,
  charge: StoredCharge,
  claim: Option.Option<Claims.Claim>,
  resumed: boolean
) =>
  Effect.gen(function* () {
    const after = yield* ChargePhases.run(processor, charge, resumed).pipe(
      Effect.catchTag("ProcessorUnavailable", (error) =>
        Effect.fail(new OutcomeUnknown({ error, pending: `charge ${charge.id}` }))
      )
    )
    if (after.status !== "pending") return yield* answer(claim, after)
    // The processor has not decided yet: nothing to replay; a retry resumes the charge.
    if (Option.isSome(claim)) {
      const idempotency = yield* IdempotencyRepository
      yield* idempotency.release(claim.value.tenant, claim.value.key).pipe(Effect.ignore)
    }
    return Written.released(ChargeWire.toWire(after))
  })

/** A charge made earlier under the request's key: its answer, or its completion if pending. */
const resume = (
  tenant: Tenant.Tenant,
  processor: PaymentProcessor,
  claim: Claims.Claim,
  found: StoredCharge
) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    yield* Claims.sameRequest(claim, found.requestFingerprint)
    const charge =
      found.status === "pending"
        ? yield* charges.leaseCharge(tenant, found.id, Date.now() + ChargePhases.LEASE_MS)
        : found
    if (charge.status !== "pending") {
      // Settled meanwhile (by the sweeper) after this key's claim was forgotten: stored for the
      // key whether or not the claim survived.
      const idempotency = yield* IdempotencyRepository
      yield* idempotency.settle(
        tenant,
        claim.key,
        claim.fingerprint,
        ChargePhases.responseOf(charge)
      )
      return yield* answer(Option.some(claim), charge)
    }
    if (charge.processor !== null && charge.processor !== processor.name) {
      return yield* new ProcessorChanged({
        chargeId: charge.id,
        pendingAt: charge.processor,
        current: processor.name
      })
    }
    return yield* finish(processor, charge, Option.some(claim), true)
  })

/**
 * The fee request of a charge: the amount, the currency and what the merchant states about the
 * payment, picked by name. What the charge does not choose is never read, even from a caller
 * that skipped the schema: the day is the server's, the cost of acceptance and the merchant
 * category the account's
 * (docs/design.md §3), so no request can pick the rules that judge it.
 */
const chargeContext = (input: ChargeCreate.ChargeCreate): Estimate.FeeRequest => ({
  amount: input.amount,
  currency: input.currency,
  cardType: input.cardType,
  cardNetwork: input.cardNetwork,
  cardholder: input.cardholder,
  cardScheme: input.cardScheme,
  cardIssuingCountry: input.cardIssuingCountry,
  channel: input.channel,
  standardChannel: input.standardChannel,
  feeType: input.feeType,
  disclosed: input.disclosed,
  recurring: input.recurring
})

/** Phase 1: the quote, and the charge written pending with the key it is collected under. */
const begin = (
  tenant: Tenant.Tenant,
  processor: PaymentProcessor,
  input: ChargeCreate.ChargeCreate,
  claim: Option.Option<Claims.Claim>
) =>
  Effect.gen(function* () {
    const source = input.source ?? Payment.DEFAULT_SOURCE
    const described = yield* Payment.checkCard(processor, source, input)
    // Read without writing: a refused charge leaves no configuration row behind.
    const config = yield* Config.inForce(tenant)
    if (tenant.livemode && config.requireEstimate && input.estimate === undefined) {
      return yield* new EstimateRequired()
    }
    const schedule = yield* Effect.orDieWith(Config.scheduleOf(config), Config.refused)
    const { customer, description, metadata } = input
    const ruleset = yield* Config.pinnedRuleset(yield* ComplianceRules, config)
    const region = yield* Config.regionOf(config, input.region)
    const shown =
      input.estimate === undefined
        ? undefined
        : yield* Honoured.quote(tenant, input, input.estimate, region)
    const quote = yield* Estimate.chargeQuote(
      schedule,
      ruleset,
      {
        ...chargeContext(input),
        ...described.fields,
        region,
        costOfAcceptance: yield* Config.costOfAcceptanceOf(config.costOfAcceptance),
        merchantCategoryCode: config.merchantCategoryCode,
        allowUncertain: config.allowUncertain
      },
      // Never more than the shopper was shown: the smaller of the quoted and the legal fee.
      shown?.fee
    )
    yield* Payment.checkCompliant(quote, config.nonCompliant)

    const id = yield* Effect.flatMap(Ids, (ids) => ids.make("ch"))
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
      cardType: described.fields.cardType ?? null,
      amountRefunded: 0,
      refunded: false,
      disputed: false,
      billingMode: config.billingMode,
      ...(input.estimate === undefined ? {} : { estimate: input.estimate }),
      card: described.card
    }
    const charges = yield* ChargeRepository
    return yield* charges
      .beginCharge({
        ...ChargeWire.toStored(charge, tenant.accountId, source),
        processor: processor.name,
        processorKey: `levy_${id}`,
        idempotencyKey: Claims.keyOf(claim),
        requestFingerprint: Claims.fingerprintOf(claim),
        processorReference: null,
        recoverAfterMs: Date.now() + ChargePhases.LEASE_MS
      })
      .pipe(
        // The id is fresh: the quote is taken by another live charge, or the key by a request
        // still running.
        Effect.catchTag(
          "DuplicateRecord",
          (clash): Effect.Effect<never, EstimateRefused | IdempotencyKeyInUse> =>
            clash.entity === "charge_estimate"
              ? Effect.fail(new EstimateRefused({ reason: "used" }))
              : Effect.fail(new IdempotencyKeyInUse({ key: Claims.keyOf(claim) ?? "" }))
        )
      )
  })

/**
 * Charges `input` for `tenant`, under `claim` when the request carries an Idempotency-Key
 * (the key already claimed by the caller). The charge as the wire shows it, and what was done
 * with the claim.
 */
export const createCharge = (
  tenant: Tenant.Tenant,
  input: ChargeCreate.ChargeCreate,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<Written.Written<Wire.Charge>, CreateChargeError, CreateChargeServices> =>
  Effect.gen(function* () {
    const processors = yield* PaymentProcessors
    const processor = yield* Payment.processorFor(processors, tenant)
    if (Option.isSome(claim)) {
      const charges = yield* ChargeRepository
      const found = yield* charges.findByIdempotencyKey(tenant, claim.value.key)
      if (Option.isSome(found)) return yield* resume(tenant, processor, claim.value, found.value)
    }
    const pending = yield* begin(tenant, processor, input, claim)
    return yield* finish(processor, pending, claim, false)
  }).pipe(
    Effect.catchTag("RecordNotFound", (e) =>
      Effect.fail(new StorageError({ message: `${e.entity} ${e.id} vanished` }))
    )
  )
