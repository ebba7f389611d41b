/**
 * The `/v1` API mounted into an app that already runs (docs/embedding.md): a web-standard
 * handler `(Request) => Promise<Response>` (Hono, Next.js route handlers, anything built on
 * fetch) and a node:http listener `(req, res)` (Express, Fastify, node:http). Both are built
 * from what `levy serve` runs — the same `ApiLive` (contract, edge, handlers), the same
 * `ApiServices` — only the transport differs. The store and the settings are passed in code, not read from the environment (a SQL
 * store's webhook secrets are still sealed with `LEVY_SECRET_KEY`, else `<dataDir>/secret.key`).
 *
 * Paths are the API's own (`/v1/...`): mount it where the framework strips the prefix
 * (`app.use("/levy", levy.listener)` in Express, `app.mount("/levy", levy.fetch)` in Hono),
 * or strip it yourself (examples/mounted/src/fastify.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import * as Accounts from "@levy/engine/access/Accounts.js"
import * as Store from "@levy/engine/Store.js"
import type { DispatcherConfig } from "@levy/engine/webhookDeliveries/DispatcherConfig.js"
import * as DispatcherLayer from "@levy/engine/webhookDeliveries/DispatcherLayer.js"
import type { Ids, Storage } from "@levy/storage"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import * as ApiServices from "./ApiServices.js"
import * as Edge from "./http/Edge.js"
import { defaults, EdgeConfig } from "./http/EdgeConfig.js"
import * as NodeListener from "./http/NodeListener.js"
import * as RateLimitStore from "./http/RateLimitStore.js"
import * as WebHandler from "./http/WebHandler.js"
import { ApiLive } from "./Server.js"

export interface Options {
  /**
   * The store, as `levy serve --store … --data-dir …` takes it: `{ store: "memory" }` (the
   * default), `{ store: "embedded", dataDir: ".levy" }` (`dataDir` defaults to `.levy`) or
   * `{ store: "postgres", databaseUrl }`; or any layer of the whole store (`Storage.layer…`
   * with `Ids.layer`).
   */
  readonly store?: Store.Choice | Layer.Layer<Storage.Repositories | Ids, unknown>
  /** Requests per window per key (`test`, `live`), per address without a key, and the window. */
  readonly rateLimits?: Partial<(typeof defaults)["rateLimits"]>
  /** The largest request body accepted, bytes (default 1 MiB). */
  readonly maxBodyBytes?: number
  /**
   * Rate limits shared by several processes through Redis at this URL (default, and when
   * empty as an unset `process.env.REDIS_URL` may be: in memory).
   */
  readonly redisUrl?: string | undefined
  /** Webhook delivery settings over the production defaults. */
  readonly webhooks?: Partial<DispatcherConfig>
}

/** The mounted API. */
export interface MountedLevy {
  /** The web-standard handler: `/v1/...` requests in, responses out. */
  readonly fetch: (request: Request) => Promise<Response>
  /** The node:http listener for the same API. */
  readonly listener: (request: IncomingMessage, response: ServerResponse) => void
  /** Creates an account with its four API keys, returned once (as `levy accounts create`). */
  readonly createAccount: (name: string) => Promise<Accounts.Created>
  /** Stops webhook delivery and closes the store. */
  readonly close: () => Promise<void>
}

class Handlers extends Context.Tag("@levy/server/Mount/Handlers")<
  Handlers,
  Pick<MountedLevy, "fetch" | "listener">
>() {}

/** Both transports over one edge; tracing off, as in `Server.layer` (nothing exports the spans). */
const handlers = Layer.effect(
  Handlers,
  Effect.map(Edge.make, (edge) => ({
    fetch: WebHandler.make(edge),
    listener: NodeListener.make(edge)
  }))
).pipe(Layer.provide(ApiLive))

const storeLayer = (store: Options["store"]): Layer.Layer<Storage.Repositories | Ids, unknown> =>
  store === undefined
    ? Store.layer({ store: "memory" })
    : "store" in store
      ? Store.layer(store)
      : store

/** The handlers with everything they run on, over `options`' store (exposed too). */
export const layer = (options: Options = {}) =>
  ApiServices.provide(handlers, {
    rateLimiter:
      options.redisUrl === undefined || options.redisUrl === ""
        ? RateLimitStore.layerMemory
        : RateLimitStore.layerRedis(options.redisUrl),
    edge: Layer.succeed(EdgeConfig, {
      rateLimits: { ...defaults.rateLimits, ...options.rateLimits },
      maxBodyBytes: options.maxBodyBytes ?? defaults.maxBodyBytes
    }),
    dispatcher: DispatcherLayer.layer(options.webhooks)
  }).pipe(
    Layer.provideMerge(storeLayer(options.store)),
    Layer.provide(Layer.setTracerEnabled(false))
  )

/** Builds the API over `options` (SQL stores migrate first); `close` it when the app stops. */
export const make = async (options: Options = {}): Promise<MountedLevy> => {
  const runtime = ManagedRuntime.make(layer(options))
  try {
    const { fetch, listener } = await runtime.runPromise(Handlers)
    return {
      fetch,
      listener,
      createAccount: (name) => runtime.runPromise(Accounts.create(name)),
      close: () => runtime.dispose()
    }
  } catch (error) {
    await runtime.dispose()
    throw error
  }
}
