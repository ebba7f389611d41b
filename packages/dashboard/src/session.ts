/**
 * The signed-in key: kept in this tab's sessionStorage only (gone when the tab closes), sent
 * only to this page's own origin through @levy/client.
 */
import { Levy } from "@levy/client"

const STORAGE_KEY = "levy.dashboard.secretKey"

export type Mode = "test" | "live"

/** Secret keys name their mode: sk_dev_… is test mode, sk_prod_… live. */
export const modeOf = (key: string): Mode | undefined =>
  key.startsWith("sk_prod_") ? "live" : key.startsWith("sk_dev_") ? "test" : undefined

export interface Session {
  readonly key: string
  readonly mode: Mode
  readonly levy: Levy
}

/** A client for `key` against this origin (no retries on 4xx; the page shows the message). */
export const clientFor = (key: string): Levy =>
  new Levy(key, { baseUrl: window.location.origin, timeout: 15_000 })

export const load = (): Session | undefined => {
  const key = sessionStorage.getItem(STORAGE_KEY)
  const mode = key === null ? undefined : modeOf(key)
  return key === null || mode === undefined ? undefined : { key, mode, levy: clientFor(key) }
}

export const save = (key: string): void => sessionStorage.setItem(STORAGE_KEY, key)

export const clear = (): void => sessionStorage.removeItem(STORAGE_KEY)
