/**
 * The URL an endpoint may have in its mode (docs/design.md §8): UrlGuard's check, loopback
 * allowed in test mode only on a server run for development (`LoopbackTargets`).
 */
import type { Tenant } from "@levy/storage"
import { Effect } from "effect"
import { LoopbackTargets } from "./LoopbackTargets.js"
import * as UrlGuard from "./UrlGuard.js"
import type { WebhookUrlRefused } from "./WebhookEndpointErrors.js"

export const check = (tenant: Tenant.Tenant, url: string): Effect.Effect<void, WebhookUrlRefused> =>
  Effect.flatMap(LoopbackTargets, (allowLoopback: boolean) =>
    Effect.asVoid(UrlGuard.check(url, { livemode: tenant.livemode, allowLoopback }))
  )
