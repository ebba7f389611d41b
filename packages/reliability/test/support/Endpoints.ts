/** Every endpoint of the /v1 contract, derived from `LevyApi` (no hand-kept list to go stale). */
import * as HttpApi from "@effect/platform/HttpApi"
import { LevyApi } from "@levy/api"

export interface Endpoint {
  readonly method: string
  /** With `:param` segments. */
  readonly path: string
  readonly params: ReadonlyArray<string>
}

export const endpoints = (): ReadonlyArray<Endpoint> => {
  const all: Array<Endpoint> = []
  HttpApi.reflect(LevyApi.LevyApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const params = [...endpoint.path.matchAll(/:(\w+)/g)].map((m) => m[1]!)
      all.push({ method: endpoint.method, path: endpoint.path, params })
    }
  })
  return all
}

/** `path` with each `:param` replaced by `value(param)` (URL-encoded). */
export const fill = (endpoint: Endpoint, value: (param: string) => string): string =>
  endpoint.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(value(name)))
