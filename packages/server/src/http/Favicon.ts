/**
 * `GET /favicon.ico`, which every browser asks for on opening `/docs` or the dashboard. Levy
 * has no icon: the answer is an empty 204, cached for a day, given like the docs without a
 * key, a rate limit or a version check. (It was a 401 in the error shape, and each one used
 * up a request of the visitor's per-address limit.)
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { Route } from "./Routes.js"

export const routes: ReadonlyArray<Route> = [{ method: "GET", pattern: /^\/favicon\.ico$/ }]

export const CACHE_CONTROL = "public, max-age=86400"

export const response = HttpServerResponse.empty({ status: 204 })
