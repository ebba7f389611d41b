/**
 * The API's documentation, public: the OpenAPI 3.1 document of the full `LevyApi` contract
 * (what clients code against, including the groups not served yet) at `GET /v1/openapi.json`,
 * and the Scalar reference page over that same document at `GET /docs` (Scalar's script is
 * inlined by @effect/platform, no CDN). The edge lets both through without a key, a rate
 * limit or a `Levy-Version` check, and marks them cacheable.
 */
import { createHash } from "node:crypto"
import type * as HttpApiScalar from "@effect/platform/HttpApiScalar"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import { LevyApi } from "@levy/api"
import { Effect } from "effect"
import type { Route } from "./Routes.js"

export const OPENAPI_PATH = "/v1/openapi.json"
export const DOCS_PATH = "/docs"

/** `Cache-Control` of both: the document only changes with a deployment. */
export const CACHE_CONTROL = "public, max-age=300"

/** The public documentation routes, for the edge (no key, no limit) and the 404/405 table. */
export const routes: ReadonlyArray<Route> = [
  { method: "GET", pattern: /^\/v1\/openapi\.json$/ },
  { method: "GET", pattern: /^\/docs$/ }
]

/** The OpenAPI document of `LevyApi`, finished by `OpenApiDocument.transform` (its annotation). */
export const document = OpenApi.fromApi(LevyApi.LevyApi)

const body = JSON.stringify(document)
const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`

/** `GET /v1/openapi.json`: the document, with a strong ETag (304 on `If-None-Match`). */
const openApiResponse = (headers: Readonly<Record<string, string | undefined>>) => {
  const cached = { etag, "cache-control": CACHE_CONTROL }
  const match = headers["if-none-match"]
  return match?.split(",").some((t) => t.trim() === etag || t.trim() === "*")
    ? HttpServerResponse.empty({ status: 304, headers: cached })
    : HttpServerResponse.text(body, { contentType: "application/json", headers: cached })
}

/**
 * The reference page, made on the first request for it: Scalar's page for `LevyApi` as
 * @effect/platform renders it (its router answering one request for `/docs`). Scalar's script
 * is a 3 MB string in its module and the page 3 MB of bytes: a server nobody reads the docs of
 * does not load the one nor hold the other.
 */
const page = Effect.flatMap(
  Effect.promise(() => import("@effect/platform/HttpApiScalar")),
  (Scalar) =>
    Effect.scoped(
      Effect.flatMap(
        HttpLayerRouter.toHttpEffect(
          Scalar.layerHttpLayerRouter({
            api: LevyApi.LevyApi,
            path: DOCS_PATH,
            // No font download from Scalar's servers: the page is self-contained. No toolbar:
            // Scalar shows its own on localhost ("Share", "Generate SDKs": its hosted services),
            // which a self-hosted reference does not offer. The bundled Scalar reads
            // `showToolbar`; @effect/platform's config type predates it.
            scalar: { withDefaultFonts: false, showToolbar: "never" } as HttpApiScalar.ScalarConfig
          })
        ),
        (app) =>
          Effect.provideService(
            app,
            HttpServerRequest.HttpServerRequest,
            HttpServerRequest.fromWeb(new Request(`http://levy.invalid${DOCS_PATH}`))
          )
      )
    )
  // The router was given this one path: not finding it is a defect, not a request's error.
).pipe(Effect.orDie)

/** The docs' answer to a GET of `pathname` (one of `routes`), with the request's `headers`. */
export const make = Effect.map(
  Effect.cached(page),
  (docsPage) =>
    (
      pathname: string,
      headers: Readonly<Record<string, string | undefined>>
    ): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
      pathname === OPENAPI_PATH ? Effect.succeed(openApiResponse(headers)) : docsPage
)

/** The SHA-256 CSP source of each inline `<script>` of `html` (Scalar's own and its config). */
const scriptHashes = (html: string): ReadonlyArray<string> =>
  [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (m) =>
      `'sha256-${createHash("sha256")
        .update(m[1] ?? "")
        .digest("base64")}'`
  )

let policyOf: { readonly body: Uint8Array; readonly headers: Record<string, string> } | undefined

/**
 * Headers of the `/docs` page, which shares its origin with the dashboard (where the signed-in
 * key lives): only its own inline scripts run (by hash), nothing loads from elsewhere, no
 * framing, no sniffing, no referrer.
 */
export const securityHeaders = (body: Uint8Array): Record<string, string> => {
  if (policyOf?.body !== body) {
    const hashes = scriptHashes(new TextDecoder().decode(body))
    policyOf = {
      body,
      headers: {
        "content-security-policy": [
          "default-src 'none'",
          // Scalar compiles WebAssembly: that, but no eval of text.
          `script-src ${hashes.join(" ")} 'wasm-unsafe-eval'`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data:",
          "font-src 'self' data:",
          "connect-src 'self'",
          "base-uri 'none'",
          "form-action 'none'",
          "frame-ancestors 'none'"
        ].join("; "),
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer"
      }
    }
  }
  return policyOf.headers
}
