/**
 * Which processor serves a tenant (docs/design.md §4): the one configured for the account and
 * mode (`/v1/processor-config`), else in test mode the built-in simulator; in live mode with
 * none configured there is no processor, and a live charge is refused, never faked.
 */
import type { StorageError, Tenant } from "@levy/storage"
import { Context, Effect, Layer, Option } from "effect"
import type { PaymentProcessor } from "./PaymentProcessor.js"
import * as Simulator from "./simulator/Simulator.js"

/** A configured processor as its notification endpoint needs it. */
export interface NotificationTarget {
  readonly processor: PaymentProcessor
  /** The credential its notifications are signed with (Stripe `whsec_…`, Adyen HMAC key). */
  readonly webhookSecret: string
}

export interface PaymentProcessorsService {
  /** The processor that charges and refunds for `tenant`; none in live mode until configured. */
  readonly forTenant: (
    tenant: Tenant.Tenant
  ) => Effect.Effect<Option.Option<PaymentProcessor>, StorageError>
  /**
   * The processor named `name` configured for `tenant`, with its webhook secret, when one is
   * configured with a webhook secret: the processor-webhook route verifies notifications with it.
   */
  readonly forNotifications: (
    tenant: Tenant.Tenant,
    name: string
  ) => Effect.Effect<Option.Option<NotificationTarget>, StorageError>
}

/** The processor of each tenant. */
export class PaymentProcessors extends Context.Tag("@levy/engine/PaymentProcessors")<
  PaymentProcessors,
  PaymentProcessorsService
>() {
  /** The simulator in test mode, no processor in live mode (no configuration read). */
  static readonly layerTestOnly = Layer.succeed(PaymentProcessors, {
    forTenant: (tenant) =>
      Effect.succeed(tenant.livemode ? Option.none() : Option.some(Simulator.processor)),
    forNotifications: () => Effect.succeed(Option.none())
  })
}
