/** The client's settings and their defaults. */
import { Headers } from "@levy/api"

export interface Options {
  /** The server's address, without `/v1`; default `http://127.0.0.1:4000` (`levy serve`). */
  readonly baseUrl?: string | undefined
  /** Per attempt, milliseconds; when it passes the request is aborted (NetworkError). Default 30000. */
  readonly timeout?: number | undefined
  /** Sent as `Levy-Version`. Default `2025-01`. */
  readonly apiVersion?: string | undefined
  /** Retries after the first attempt for network errors, 409 in-use, 429 and 5xx. Default 2. */
  readonly maxRetries?: number | undefined
}

export interface Resolved {
  readonly apiKey: string
  readonly baseUrl: string
  readonly timeout: number
  readonly apiVersion: string
  readonly maxRetries: number
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:4000"
export const DEFAULT_TIMEOUT = 30_000
export const DEFAULT_MAX_RETRIES = 2

const nonNegativeInteger = (name: string, value: number): number => {
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(`${name} must be a non-negative integer, got ${value}`)
  }
  return value
}

/** The options with their defaults; throws on an empty key or a nonsensical number. */
export const resolve = (apiKey: string, options: Options = {}): Resolved => {
  if (typeof apiKey !== "string" || apiKey.length === 0) {
    throw new TypeError("an API key is required: new Levy('sk_dev_service_…')")
  }
  return {
    apiKey,
    // a trailing slash would give `//v1/…`
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ""),
    timeout: nonNegativeInteger("timeout", options.timeout ?? DEFAULT_TIMEOUT),
    apiVersion: options.apiVersion ?? Headers.API_VERSION,
    maxRetries: nonNegativeInteger("maxRetries", options.maxRetries ?? DEFAULT_MAX_RETRIES)
  }
}
