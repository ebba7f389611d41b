/**
 * Where each processor's API is, when not at the processor's own address: a proxy in front of
 * it, or a local fake (tests, `levy fake`). A SERVER setting, never an account's (docs/design.md
 * §4): an account that could choose it would make the server send requests, its credentials
 * included, to any host. Unset, every processor is its own API: nothing else points Levy at a
 * fake. `LEVY_STRIPE_API_BASE_URL`, `LEVY_ADYEN_API_BASE_URL` (docs/server.md).
 */
import { Config, Context, Effect, Layer, Option } from "effect"
import * as Definitions from "./Definitions.js"

/** The base URL per processor name; a processor not listed uses its own API. */
export type Urls = Readonly<Record<string, string>>

export class ProcessorApiBaseUrls extends Context.Reference<ProcessorApiBaseUrls>()(
  "@levy/engine/ProcessorApiBaseUrls",
  { defaultValue: (): Urls => ({}) }
) {}

/** The environment variable of a processor's base URL: `LEVY_STRIPE_API_BASE_URL`. */
export const variable = (name: string) => `LEVY_${name.toUpperCase()}_API_BASE_URL`

const isHttpUrl = (text: string) =>
  URL.canParse(text) && ["http:", "https:"].includes(new URL(text).protocol)

/** The base URLs set in the environment (empty counts as unset); a malformed one fails. */
export const fromEnv = Effect.gen(function* () {
  const urls: Record<string, string> = {}
  for (const name of Definitions.names) {
    const value = yield* Config.option(
      Config.string(variable(name)).pipe(
        Config.validate({
          message: "must be an http(s) URL",
          validation: (text) => text === "" || isHttpUrl(text)
        })
      )
    )
    if (Option.isSome(value) && value.value !== "") urls[name] = value.value
  }
  return urls as Urls
})

export const layerFromEnv = Layer.effect(ProcessorApiBaseUrls, fromEnv)

/** The base URL of processor `name`, if the server sets one. */
export const of = (urls: Urls, name: string): string | undefined => urls[name]

/**
 * What `levy serve` prints at start for each base URL set: whoever started it sees that a
 * processor's requests, credentials included, go somewhere other than the processor.
 */
export const describe = (urls: Urls): ReadonlyArray<string> =>
  Object.entries(urls).map(
    ([name, url]) =>
      `${name} API requests go to ${url} (${variable(name)}), not to ${name} itself: a proxy, or a local fake (levy fake ${name}).`
  )
