/** The served API's routes as patterns, to tell a wrong method (405) from an unknown path (404). */
import * as HttpApi from "@effect/platform/HttpApi"

export interface Route {
  readonly method: string
  readonly pattern: RegExp
}

/** Every endpoint of `api` as method + path pattern (`:param` = one segment). */
export const routesOf = (api: HttpApi.HttpApi.Any): ReadonlyArray<Route> => {
  const routes: Array<Route> = []
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      const source = endpoint.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")
      routes.push({ method: endpoint.method, pattern: new RegExp(`^${source}/?$`) })
    }
  })
  return routes
}

/** The methods `pathname` accepts; empty for an unknown path. */
export const allowedMethods = (
  routes: ReadonlyArray<Route>,
  pathname: string
): ReadonlyArray<string> => [
  ...new Set(routes.filter((r) => r.pattern.test(pathname)).map((r) => r.method))
]

/**
 * The path of a request URL, as the URL parser gives it. A plain path (letters, digits, `_`,
 * `-`, single slashes, an optional query) parses to itself, so it is cut, not parsed: the
 * parser was a visible share of every request's CPU. Anything else (dots, escapes, `//`) is
 * parsed.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)+\/?(?=\?|$)|^\/(?=\?|$)/
export const pathnameOf = (request: { readonly url: string }): string => {
  const plain = PLAIN_PATH.exec(request.url)
  if (plain !== null) return plain[0]
  try {
    return new URL(request.url, "http://levy.invalid").pathname
  } catch {
    // A target the parser refuses (`//`: a host with no name) names no route.
    return request.url.split("?")[0] ?? request.url
  }
}

/**
 * A request target that does not start with exactly one `/`: `//host/…` would be read as a
 * host and a path, a different path than the one sent. No route has such a target.
 */
export const isOffPath = (url: string): boolean => !url.startsWith("/") || url.startsWith("//")
