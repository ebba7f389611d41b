/**
 * The wire form of a processor configuration and of a change held for approval: credentials
 * masked, the webhook path added.
 */
import type { ProcessorConfig as Wire } from "@levy/api"
import type { OpenedProcessorChange, OpenedProcessorConfig, ProcessorConfig } from "@levy/storage"
import { Tenant } from "@levy/storage"
import { type Request, webhookPath } from "./Connect.js"
import * as Credentials from "./Credentials.js"

/** A configuration as shown: its credentials masked, its webhook path. */
const shown = (
  tenant: Tenant.Tenant,
  requested: Request,
  created: number,
  updated: number
): Wire.ProcessorConfig => ({
  object: "processor_config",
  processor: requested.processor as Wire.ProcessorName,
  livemode: tenant.livemode,
  credentials: Credentials.masked(requested.credentials),
  surcharge: requested.surcharge,
  webhookUrl: webhookPath(tenant, requested.processor),
  created,
  updated
})

/** The configuration in force, with the change held for it when there is one. */
export const config = (
  opened: OpenedProcessorConfig,
  pending?: Wire.ProcessorConfigChange
): Wire.ProcessorConfig => ({
  ...shown(
    Tenant.make(opened.config.accountId, opened.config.livemode),
    { ...opened.config, credentials: opened.credentials },
    opened.config.created,
    opened.config.updated
  ),
  ...(pending === undefined ? {} : { pendingChange: pending })
})

/**
 * The answer to a save held for approval: the configuration requested (not in force,
 * `applied: false`) and the change that holds it.
 */
export const held = (
  tenant: Tenant.Tenant,
  requested: Request,
  pending: Wire.ProcessorConfigChange
): Wire.ProcessorConfig => ({
  ...shown(tenant, requested, pending.requestedAt, pending.requestedAt),
  applied: false,
  pendingChange: pending
})

/** The answer to a delete: done, or (with `pending`) held for approval. */
export const deleted = (
  removed: ProcessorConfig,
  pending?: Wire.ProcessorConfigChange
): Wire.DeletedProcessorConfig => ({
  object: "processor_config",
  processor: removed.processor as Wire.ProcessorName,
  livemode: removed.livemode,
  deleted: pending === undefined,
  ...(pending === undefined ? {} : { pendingChange: pending })
})

/**
 * A held change, its credentials masked: stale when the revision in force (`inForce`, null:
 * none) is not the one it was requested against.
 */
export const change = (
  opened: OpenedProcessorChange,
  status: Wire.ProcessorConfigChange["status"],
  inForce: string | null
): Wire.ProcessorConfigChange => ({
  object: "processor_config_change",
  id: opened.change.id,
  action: opened.change.action,
  processor: opened.change.processor as Wire.ProcessorName,
  livemode: opened.change.livemode,
  ...(opened.credentials === null ? {} : { credentials: Credentials.masked(opened.credentials) }),
  surcharge: opened.change.surcharge,
  status,
  stale: opened.change.baseRevision !== inForce,
  requestedAt: opened.change.requestedAt
})
