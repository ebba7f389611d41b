/**
 * The HTTP client the Adyen library sends through (its documented `ClientInterface` extension
 * point). The library's own client only speaks HTTPS to Adyen's hosts; this one sends to the
 * configured API base URL (a proxy, a local fake) with the same headers (`X-API-Key`,
 * `Idempotency-Key`, JSON) and fails the way the library's client fails (`HttpClientException`
 * with Adyen's error body), so the library's services behave as with Adyen itself.
 */
import type Adyen from "@adyen/api-library"
import { AdyenSdk } from "./AdyenSdk.js"

type ClientInterface = ConstructorParameters<typeof Adyen.Client>[1]
type Request = NonNullable<ClientInterface>["request"]

/** Adyen's path from the API version on (`/v72/payments`), under `base`. */
export const rebase = (endpoint: string, base: string): string => {
  const url = new URL(endpoint)
  const version = url.pathname.search(/\/v\d+(\/|$)/)
  const path = version === -1 ? url.pathname : url.pathname.slice(version)
  return `${base.replace(/\/+$/, "")}${path}${url.search}`
}

const PACKAGE_VERSION = "32.1.0"

/** A client sending every request of the Adyen library to `apiBaseUrl`. */
export const transport = (apiBaseUrl: string, timeoutMs: number): NonNullable<ClientInterface> => {
  const request: Request = async (endpoint, json, config, _apiKeyRequired, options = {}) => {
    const query =
      options.params === undefined ? "" : `?${new URLSearchParams(options.params).toString()}`
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": `levy adyen-node-api-library/${PACKAGE_VERSION}`,
      "x-api-key": config.apiKey ?? ""
    }
    if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey
    const method = options.method ?? "POST"
    const response = await fetch(rebase(endpoint, apiBaseUrl) + query, {
      method,
      headers,
      ...(method === "GET" ? {} : { body: typeof json === "string" ? json : new Uint8Array(json) }),
      signal: AbortSignal.timeout(timeoutMs)
    })
    const body = await response.text()
    if (response.ok) return body
    let apiError: { status?: number; errorCode?: string; message?: string } | undefined
    try {
      apiError = JSON.parse(body) as typeof apiError
    } catch {
      apiError = undefined
    }
    // The library calls this transport, so it is loaded: `load` only hands it back.
    const { HttpClientException } = await AdyenSdk.load()
    throw new HttpClientException({
      message: `HTTP Exception: ${response.status}. ${apiError?.message ?? response.statusText}`,
      statusCode: response.status,
      ...(apiError?.errorCode === undefined ? {} : { errorCode: apiError.errorCode }),
      responseBody: body,
      ...(apiError === undefined ? {} : { apiError: apiError as never })
    })
  }
  return { request }
}
