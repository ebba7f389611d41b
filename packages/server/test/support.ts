/** Starts the real server on an ephemeral port for a test file and talks to it with fetch. */

import type * as RateLimiter from "@effect/experimental/RateLimiter"
import * as HttpServer from "@effect/platform/HttpServer"
import { ComplianceRules } from "@levy/core"
import { ProcessorApiBaseUrls, type Urls } from "@levy/engine/processors/ApiBaseUrls.js"
import * as ConfiguredProcessors from "@levy/engine/processors/ConfiguredProcessors.js"
import type { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import { LoopbackTargets } from "@levy/engine/webhookEndpoints/LoopbackTargets.js"
import { AccountRepository, Ids, SecretBox, Storage, Testing } from "@levy/storage"
import { Duration, Effect, Layer, ManagedRuntime } from "effect"
import * as KeyResolver from "../src/access/KeyResolver.js"
import { defaults, EdgeConfig, type EdgeOptions } from "../src/http/EdgeConfig.js"
import * as RateLimitStore from "../src/http/RateLimitStore.js"
import * as Server from "../src/Server.js"

export const SECRET = "sk_dev_service_secret0001"
export const LIVE_SECRET = "sk_prod_service_secret0002"
export const PUBLISHABLE = "pk_dev_service_public0003"

export const KEYS: ReadonlyArray<KeyResolver.StaticKey> = [
  { secret: SECRET, accountId: "acct_1", keyId: "key_sk_dev" },
  { secret: LIVE_SECRET, accountId: "acct_1", keyId: "key_sk_prod" },
  { secret: PUBLISHABLE, accountId: "acct_1", keyId: "key_pk_dev" }
]

/**
 * A second live secret key of acct_1, for approving what another key requested (a held fee
 * or processor configuration change, docs/design.md §4, §6).
 */
export const LIVE_APPROVER = "sk_prod_service_approver0005"
export const KEYS_WITH_APPROVER: ReadonlyArray<KeyResolver.StaticKey> = [
  ...KEYS,
  { secret: LIVE_APPROVER, accountId: "acct_1", keyId: "key_sk_prod_approver" }
]

export interface Running {
  readonly url: string
  readonly close: () => Promise<void>
}

export const start = async (
  options: {
    readonly edge?: Partial<EdgeOptions["rateLimits"]>
    readonly maxBodyBytes?: number
    /** The dashboard's build directory; default the workspace's packages/dashboard/dist. */
    readonly dashboardDir?: string
    readonly limiter?: Layer.Layer<RateLimiter.RateLimiter>
    readonly keys?: ReadonlyArray<KeyResolver.StaticKey>
    /** The key resolver; default the static one over `keys`. */
    readonly resolver?: Layer.Layer<KeyResolver.KeyResolver>
    /** The store; default a fresh in-memory one. Pass one to look into it from the test. */
    readonly storage?: Layer.Layer<Storage.Repositories | Ids>
    /** Whether test-mode webhooks may target loopback (default true: a development server). */
    readonly loopbackTargets?: boolean
    /** Proxies whose X-Forwarded-For is believed (default none). */
    readonly trustedProxies?: ReadonlyArray<string>
    /** The processors (default: the configured one, else the simulator in test mode). */
    readonly processors?: Layer.Layer<PaymentProcessors>
    /** Where each processor's API is (the local fakes); default the processors' own. */
    readonly processorApiBaseUrls?: Urls
  } = {}
): Promise<Running> => {
  const edge: EdgeOptions = {
    // A suite's own fee changes are not what the fee-configuration write limit is for; the
    // tests of that limit set it (FeeConfigWriteLimit.test.ts).
    rateLimits: { ...defaults.rateLimits, feeConfigWrites: 10_000, ...options.edge },
    maxBodyBytes: options.maxBodyBytes ?? defaults.maxBodyBytes,
    trustedProxies: options.trustedProxies ?? [],
    ...(options.dashboardDir === undefined ? {} : { dashboardDir: options.dashboardDir })
  }
  const layer = Server.layer({ port: 0, host: "127.0.0.1" }).pipe(
    Layer.provide([
      options.resolver ?? KeyResolver.layerMemory(options.keys ?? KEYS),
      options.limiter ?? RateLimitStore.layerMemory,
      ComplianceRules.Live,
      Layer.succeed(EdgeConfig, edge),
      Layer.succeed(LoopbackTargets, options.loopbackTargets ?? true)
    ]),
    Layer.provide(options.processors ?? ConfiguredProcessors.layerWithSimulator),
    Layer.provide(Layer.succeed(ProcessorApiBaseUrls, options.processorApiBaseUrls ?? {})),
    Layer.provideMerge(options.storage ?? Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer)))
  )
  const runtime = ManagedRuntime.make(layer)
  const server = await runtime.runPromise(HttpServer.HttpServer)
  const address = server.address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, close: () => runtime.dispose() }
}

/** A small window that will not roll over during a test. */
export const WINDOW = Duration.minutes(10)

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
  readonly text: string
}

export const call = async (
  base: string,
  method: string,
  path: string,
  init: {
    readonly body?: unknown
    readonly raw?: string
    readonly key?: string | null
    readonly headers?: Record<string, string>
  } = {}
): Promise<Reply> => {
  const headers: Record<string, string> = { ...init.headers }
  const key = init.key === undefined ? SECRET : init.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  let body: string | undefined
  if (init.raw !== undefined) body = init.raw
  else if (init.body !== undefined) body = JSON.stringify(init.body)
  if (body !== undefined && headers["content-type"] === undefined) {
    headers["content-type"] = "application/json"
  }
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body })
  })
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers, body: parsed, text }
}

/** A fresh store for a server under test, with `Ids`. */
export type TestStore = Layer.Layer<Storage.Repositories | Ids>

/** The in-memory store. */
export const memoryStore = (): TestStore => Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))

/** PostgreSQL in a throwaway database, migrated, dropped when the layer is released. */
export const postgresStore = (): TestStore =>
  Layer.unwrapScoped(
    Effect.map(Testing.throwawayDatabase("levy_server"), ({ url }) =>
      Storage.layerPostgres({ url, maxConnections: 10 })
    )
  ).pipe(Layer.provide(SecretBox.layerRandom), Layer.provideMerge(Ids.layer), Layer.orDie)

/** The stores every end-to-end suite runs on. */
export const STORES = [
  ["memory", memoryStore],
  ["postgres", postgresStore]
] as const

/**
 * Starts a server over `store` and keeps a runtime over the same store instance, so a test
 * can look into what the server wrote.
 */
export const startWithStore = async (
  store: TestStore,
  options: Omit<Parameters<typeof start>[0] & object, "storage"> = {}
) => {
  const runtime = ManagedRuntime.make(store)
  const context = await runtime.runtime().then((r) => r.context)
  // SQL stores hold keys to accounts: create the accounts the test's keys belong to.
  const accounts = new Set((options.keys ?? KEYS).map((k) => k.accountId))
  await runtime.runPromise(
    Effect.flatMap(AccountRepository, (repo) =>
      Effect.forEach(accounts, (id) => repo.createAccount({ id, name: id, created: 0 }), {
        discard: true
      })
    ).pipe(Effect.orDie)
  )
  const running = await start({ ...options, storage: Layer.succeedContext(context) })
  return {
    ...running,
    store: runtime,
    close: async () => {
      await running.close()
      await runtime.dispose()
    }
  }
}
