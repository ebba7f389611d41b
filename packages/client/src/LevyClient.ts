/**
 * The Effect client: `HttpApiClient` derived from the same `LevyApi` the server implements,
 * so calls, payloads, responses and errors cannot drift from the server. Each endpoint is
 * `client.<group>.<endpoint>({ path, urlParams, payload, headers })`; errors are the API's
 * tagged errors (`CardError`, `NotFoundError`, …) plus `HttpClientError` (network, timeout)
 * and `ParseError` (a payload the schema refuses before sending).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import { LevyApi } from "@levy/api"
import { Context, Effect, Layer } from "effect"
import { type Options, resolve } from "./Options.js"
import { transformClient } from "./Transport.js"

type Derived =
  typeof LevyApi.LevyApi extends HttpApi.HttpApi<infer _Id, infer Groups, infer E, infer _R>
    ? HttpApiClient.Client<Groups, E, never>
    : never

/** The client's type: one property per group, one function per endpoint. */
export interface Client extends Derived {}

/** The client over any `HttpClient` in context (tests and Node may supply their own). */
export const make = (
  apiKey: string,
  options: Options = {}
): Effect.Effect<Client, never, HttpClient.HttpClient> => {
  const resolved = resolve(apiKey, options)
  return HttpApiClient.make(LevyApi.LevyApi, {
    baseUrl: resolved.baseUrl,
    transformClient: transformClient(resolved)
  })
}

/** The client as a service. */
export class LevyClient extends Context.Tag("@levy/client/LevyClient")<LevyClient, Client>() {}

/** `LevyClient` over `fetch` (Node 20+ and browsers). */
export const layer = (apiKey: string, options: Options = {}): Layer.Layer<LevyClient> =>
  Layer.effect(LevyClient, make(apiKey, options)).pipe(Layer.provide(FetchHttpClient.layer))

/** The client over `fetch`, built at once (building does no I/O). */
export const makeFetch = (apiKey: string, options: Options = {}): Client =>
  Effect.runSync(make(apiKey, options).pipe(Effect.provide(FetchHttpClient.layer)))

/** A call with every failure as the facade's `LevyError` (e.g. a timeout as `NetworkError`). */
export { withLevyErrors } from "./toLevyError.js"
