/**
 * The dashboard's files over HTTP (no browser): public, with a strict CSP and nosniff on every
 * response, index.html never cached and hashed assets cached for good, unknown files a 404 in
 * the error shape, and a server without a build a 503 saying so. DashboardBrowser.test.ts
 * drives the page itself.
 */
import { existsSync, readdirSync } from "node:fs"
import { get } from "node:http"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Dashboard from "../src/http/Dashboard.js"
import { call, type Running, start } from "./support.js"

const built = existsSync(join(Dashboard.defaultDir, "index.html"))

const expectSecure = (headers: Headers) => {
  expect(headers.get("content-security-policy")).toBe(
    Dashboard.SECURITY_HEADERS["content-security-policy"]
  )
  expect(headers.get("content-security-policy")).toContain("default-src 'self'")
  expect(headers.get("content-security-policy")).not.toContain("unsafe-inline")
  expect(headers.get("x-content-type-options")).toBe("nosniff")
}

describe("GET /dashboard", () => {
  let server: Running
  let missing: Running

  beforeAll(async () => {
    server = await start()
    missing = await start({ dashboardDir: "/nonexistent/levy-dashboard" })
  })
  afterAll(async () => {
    await server?.close()
    await missing?.close()
  })

  it("is built by pnpm install (packages/dashboard's prepare)", () => {
    expect(built, `${Dashboard.defaultDir} has no index.html: run pnpm install`).toBe(true)
  })

  it("serves index.html without a key, never cached, naming hashed same-origin assets", async () => {
    for (const path of ["/dashboard", "/dashboard/"]) {
      const reply = await call(server.url, "GET", path, { key: null })
      expect(reply.status).toBe(200)
      expect(reply.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(reply.headers.get("cache-control")).toBe("no-cache")
      expectSecure(reply.headers)
      // No inline script (the CSP forbids it) and nothing from another host.
      expect(reply.text).toMatch(/<script type="module" src="assets\/app-[A-Z0-9]+\.js"><\/script>/)
      expect(reply.text).toMatch(/<link rel="stylesheet" href="assets\/style-[A-Z0-9]+\.css"/)
      expect(reply.text).not.toMatch(/https?:\/\//)
    }
  })

  it("serves each hashed asset with its type, cached for a year, immutable", async () => {
    const names = readdirSync(join(Dashboard.defaultDir, "assets"))
    expect(names.some((n) => n.endsWith(".js"))).toBe(true)
    for (const name of names) {
      const reply = await call(server.url, "GET", `/dashboard/assets/${name}`, { key: null })
      expect(reply.status).toBe(200)
      expect(reply.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      expect(reply.headers.get("content-type")).toBe(
        name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8"
      )
      expectSecure(reply.headers)
    }
  })

  it("gzips for clients that take it, and says it varies by Accept-Encoding", async () => {
    const script = readdirSync(join(Dashboard.defaultDir, "assets")).find((n) => n.endsWith(".js"))
    const path = `/dashboard/assets/${script}`
    // node:http, not fetch: fetch would ask for gzip itself and hide the encoding.
    const raw = (encoding: string | undefined) =>
      new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        const url = new URL(path, server.url)
        const request = get(
          url,
          { headers: encoding === undefined ? {} : { "accept-encoding": encoding } },
          (response) => {
            const chunks: Array<Buffer> = []
            response.on("data", (chunk: Buffer) => chunks.push(chunk))
            response.on("end", () =>
              resolve({ headers: response.headers, bytes: Buffer.concat(chunks) })
            )
          }
        )
        request.on("error", reject)
      })
    const plain = await raw(undefined)
    const zipped = await raw("br, gzip;q=0.8")
    const refused = await raw("gzip;q=0, identity")
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(refused.headers["content-encoding"]).toBeUndefined()
    expect(zipped.headers["content-encoding"]).toBe("gzip")
    expect(zipped.headers.vary).toBe("Accept-Encoding")
    expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 2)
    expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true)
  })

  it("answers an unknown file with a 404 in the error shape", async () => {
    for (const path of ["/dashboard/assets/app-NOPE.js", "/dashboard/other"]) {
      const reply = await call(server.url, "GET", path, { key: null })
      expect(reply.status, path).toBe(404)
      expect(reply.body).toMatchObject({
        error: { type: "invalid_request_error", code: "resource_missing" }
      })
    }
    const reply = await call(server.url, "GET", "/dashboard/assets/missing.css", { key: null })
    expect(reply.body).toStrictEqual({
      error: {
        type: "invalid_request_error",
        code: "resource_missing",
        message: "No dashboard file at /dashboard/assets/missing.css."
      }
    })
    expectSecure(reply.headers)
  })

  it("refuses other methods (with a key) with 405 and Allow: GET", async () => {
    const reply = await call(server.url, "POST", "/dashboard", { body: {} })
    expect(reply.status).toBe(405)
    expect(reply.headers.get("allow")).toBe("GET")
  })

  it("answers 503 in the error shape when the dashboard was not built", async () => {
    for (const path of ["/dashboard", "/dashboard/assets/app.js"]) {
      const reply = await call(missing.url, "GET", path, { key: null })
      expect(reply.status).toBe(503)
      expect(reply.body).toMatchObject({
        error: { type: "api_error", code: "dashboard_not_built" }
      })
      const message = (reply.body as { error: { message: string } }).error.message
      expect(message).toContain("The dashboard was not built")
      // The message showed the server's absolute path to anyone.
      expect(message).not.toContain("/nonexistent")
      expect(message).not.toContain("index.html")
    }
  })
})
