/**
 * The dashboard, public and static: `GET /dashboard` answers the page built by
 * packages/dashboard (index.html, never cached: it names the current bundle) and
 * `GET /dashboard/assets/<name>` its hashed JS and CSS (cached for a year, immutable: a new
 * build has new names). The page talks to /v1 with the signed-in key, so these routes need no
 * key; the edge lets them through like the docs, with a strict Content-Security-Policy.
 *
 * The built files are read once, on the first request that finds them (a server started
 * before `pnpm install` built them picks them up then). Without a build every dashboard path
 * answers 503 in the API's error shape, saying so.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { extname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { ApiError } from "@levy/api"
import { Effect } from "effect"
import type { Route } from "./Routes.js"

export const PATH = "/dashboard"

const WORKSPACE_DIR = fileURLToPath(new URL("../../../dashboard/dist/", import.meta.url))
const PUBLISHED_DIR = fileURLToPath(new URL("../dashboard/", import.meta.url))

/**
 * The dashboard's build: dist/dashboard in the published package (build.ts copies it there),
 * else where packages/dashboard's build writes (the workspace layout).
 */
export const defaultDir = existsSync(join(PUBLISHED_DIR, "index.html"))
  ? PUBLISHED_DIR
  : WORKSPACE_DIR

/** Every dashboard path, for the edge (no key, no limit) and the 404/405 table. */
export const routes: ReadonlyArray<Route> = [{ method: "GET", pattern: /^\/dashboard(\/.*)?$/ }]

/**
 * Headers of every dashboard response: scripts, styles and requests only from this origin
 * (no inline script, no CDN, no font download), no framing, no MIME sniffing, no referrer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join("; "),
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer"
}

export const INDEX_CACHE = "no-cache"
export const ASSET_CACHE = "public, max-age=31536000, immutable"

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".map": "application/json"
}

/** A file as built and gzipped once (the bundle is mostly Effect: ~730 kB, ~200 kB gzipped). */
interface File {
  readonly body: Uint8Array
  readonly gzip: Uint8Array
}

interface Built {
  readonly index: File
  readonly assets: ReadonlyMap<string, File>
}

const fileAt = (path: string): File => {
  const body = readFileSync(path)
  return { body, gzip: gzipSync(body) }
}

/** The build in `dir`, or undefined when there is none (no index.html). */
const read = (dir: string): Built | undefined => {
  const index = join(dir, "index.html")
  if (!existsSync(index)) return undefined
  const assetsDir = join(dir, "assets")
  const names = existsSync(assetsDir) ? readdirSync(assetsDir) : []
  return {
    index: fileAt(index),
    assets: new Map(names.map((name) => [name, fileAt(join(assetsDir, name))]))
  }
}

/** The 503 for a missing build: it names no path of the server's (anyone may ask for it). */
export const notBuilt = () =>
  new ApiError.ServiceUnavailableError({
    code: "dashboard_not_built",
    message:
      "The dashboard was not built: run `pnpm install` or `pnpm build`, then restart the server."
  })

const notFound = (pathname: string) =>
  new ApiError.NotFoundError({
    code: "resource_missing",
    message: `No dashboard file at ${pathname}.`
  })

/** Whether an `Accept-Encoding` header takes gzip (and does not refuse it with q=0). */
export const acceptsGzip = (header: string | undefined): boolean =>
  (header ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";")
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p))
    return (coding === "gzip" || coding === "*") && !refused
  })

/** `file` gzipped when the client takes it; `Vary` so caches keep both. */
const respondWith = (file: File, gzip: boolean, contentType: string, cacheControl: string) =>
  HttpServerResponse.uint8Array(gzip ? file.gzip : file.body, {
    contentType,
    headers: {
      "cache-control": cacheControl,
      vary: "Accept-Encoding",
      ...(gzip ? { "content-encoding": "gzip" } : {})
    }
  })

/**
 * The dashboard's handler over the build in `dir`: the response for `pathname` (a path under
 * /dashboard), or a 404/503 in the error shape.
 */
export const make = (dir: string | undefined) => {
  const root = dir ?? defaultDir
  let built: Built | undefined
  type Answer = Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    ApiError.NotFoundError | ApiError.ServiceUnavailableError
  >
  return (pathname: string, acceptEncoding?: string): Answer =>
    Effect.suspend((): Answer => {
      built ??= read(root)
      if (built === undefined) {
        // Where it was looked for is for the operator's log, not the response.
        return Effect.zipRight(
          Effect.logWarning("dashboard not built").pipe(
            Effect.annotateLogs({ missing: join(root, "index.html") })
          ),
          Effect.fail(notBuilt())
        )
      }
      const gzip = acceptsGzip(acceptEncoding)
      const rest = pathname.slice(PATH.length)
      if (rest === "" || rest === "/" || rest === "/index.html") {
        return Effect.succeed(
          respondWith(built.index, gzip, "text/html; charset=utf-8", INDEX_CACHE)
        )
      }
      const match = /^\/assets\/([A-Za-z0-9._-]+)$/.exec(rest)
      const name = match?.[1]
      const file = name === undefined ? undefined : built.assets.get(name)
      if (name === undefined || file === undefined) return Effect.fail(notFound(pathname))
      const contentType = CONTENT_TYPES[extname(name)] ?? "application/octet-stream"
      return Effect.succeed(respondWith(file, gzip, contentType, ASSET_CACHE))
    })
}
