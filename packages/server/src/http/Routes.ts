/**
 * Routes as patterns (the docs', the dashboard's, the favicon's), to tell a wrong method (405)
 * from an unknown path (404), and the path of a request target. The API's own routes are the
 * contract's (Contract.ts).
 */

export interface Route {
  readonly method: string
  readonly pattern: RegExp
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
