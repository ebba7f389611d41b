/**
 * The storage-backed `PaymentProcessors` (docs/design.md §4): a tenant's processor is the one
 * configured for its account and mode (`/v1/processor-config`); without one, test mode gets
 * `testModeDefault` (the simulator) and live mode none, so a live charge is refused, never
 * faked.
 *
 * An adapter (an SDK client holding the opened credentials) is built once per saved version of
 * the configuration, not per request: each request reads the row (no decryption) and reuses
 * the adapter while its `revision` is the one the adapter was built from. A save or a delete
 * changes the revision, so the next request rebuilds or drops it.
 */
import {
  type ProcessorConfig,
  ProcessorConfigRepository,
  type StorageError,
  type Tenant
} from "@levy/storage"
import { Effect, Layer, Option } from "effect"
import * as ApiBaseUrls from "./ApiBaseUrls.js"
import * as Definitions from "./Definitions.js"
import type { PaymentProcessor } from "./PaymentProcessor.js"
import { type NotificationTarget, PaymentProcessors } from "./PaymentProcessors.js"
import * as Simulator from "./simulator/Simulator.js"

/** An adapter built from one revision of a tenant's configuration. */
interface Built {
  readonly revision: string
  readonly processor: PaymentProcessor
  readonly webhookSecret: Option.Option<string>
}

/** Most adapters kept; the oldest built is dropped beyond (rebuilt on its next use). */
export const MAX_CACHED = 10_000

const keyOf = (tenant: Tenant.Tenant) => `${tenant.livemode ? "live" : "test"}/${tenant.accountId}`

/** The service, over the repository and the server's API base URLs. */
export const make = (testModeDefault: (tenant: Tenant.Tenant) => Option.Option<PaymentProcessor>) =>
  Effect.gen(function* () {
    const repo = yield* ProcessorConfigRepository
    const urls = yield* ApiBaseUrls.ProcessorApiBaseUrls
    const cache = new Map<string, Built>()

    const remember = (key: string, built: Built) => {
      cache.delete(key)
      cache.set(key, built)
      if (cache.size > MAX_CACHED) {
        const oldest = cache.keys().next()
        if (!oldest.done) cache.delete(oldest.value)
      }
      return built
    }

    /** Builds the adapter from the configuration as stored now (opened once). */
    const build = (tenant: Tenant.Tenant, key: string) =>
      Effect.flatMap(repo.open(tenant), (opened) => {
        if (Option.isNone(opened)) return Effect.succeedNone
        const { config, credentials } = opened.value
        const definition = Definitions.find(config.processor)
        if (definition === undefined) {
          return Effect.as(
            Effect.logWarning("configured processor unknown to this server").pipe(
              Effect.annotateLogs({ processor: config.processor })
            ),
            Option.none<Built>()
          )
        }
        const apiBaseUrl = ApiBaseUrls.of(urls, definition.name)
        const processor = definition.make({
          credentials,
          livemode: config.livemode,
          surcharge: config.surcharge,
          ...(apiBaseUrl === undefined ? {} : { apiBaseUrl })
        })
        const secret = credentials[definition.webhookSecretField] ?? ""
        return Effect.succeed(
          Option.some(
            remember(key, {
              revision: config.revision,
              processor,
              webhookSecret: secret === "" ? Option.none() : Option.some(secret)
            })
          )
        )
      })

    /** The tenant's configured adapter, if it has a configuration. */
    const configured = (tenant: Tenant.Tenant): Effect.Effect<Option.Option<Built>, StorageError> =>
      Effect.flatMap(repo.get(tenant), (config: Option.Option<ProcessorConfig>) => {
        const key = keyOf(tenant)
        if (Option.isNone(config)) {
          cache.delete(key)
          return Effect.succeedNone
        }
        const cached = cache.get(key)
        return cached !== undefined && cached.revision === config.value.revision
          ? Effect.succeed(Option.some(cached))
          : build(tenant, key)
      })

    return PaymentProcessors.of({
      forTenant: (tenant) =>
        Effect.map(configured(tenant), (built) =>
          Option.isSome(built)
            ? Option.some(built.value.processor)
            : tenant.livemode
              ? Option.none()
              : testModeDefault(tenant)
        ),
      forNotifications: (tenant, name) =>
        Effect.map(configured(tenant), (built) =>
          Option.flatMap(
            built,
            (b): Option.Option<NotificationTarget> =>
              b.processor.name === name
                ? Option.map(b.webhookSecret, (webhookSecret) => ({
                    processor: b.processor,
                    webhookSecret
                  }))
                : Option.none()
          )
        )
    })
  })

/**
 * `PaymentProcessors` from the store: the configured processor of each tenant, else
 * `testModeDefault(tenant)` in test mode, none in live mode.
 */
export const layer = (
  testModeDefault: (tenant: Tenant.Tenant) => Option.Option<PaymentProcessor>
): Layer.Layer<PaymentProcessors, never, ProcessorConfigRepository> =>
  Layer.effect(PaymentProcessors, make(testModeDefault))

/** What Levy runs: the configured processor, else the simulator in test mode, none live. */
export const layerWithSimulator = layer((tenant) =>
  tenant.livemode ? Option.none() : Option.some<PaymentProcessor>(Simulator.processor)
)
