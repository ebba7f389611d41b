/** The wire form of a processor configuration: credentials masked, the webhook path added. */
import type { ProcessorConfig as Wire } from "@levy/api"
import type { OpenedProcessorConfig, ProcessorConfig } from "@levy/storage"
import { Tenant } from "@levy/storage"
import { webhookPath } from "./Connect.js"
import * as Credentials from "./Credentials.js"

export const config = (opened: OpenedProcessorConfig): Wire.ProcessorConfig => ({
  object: "processor_config",
  processor: opened.config.processor as Wire.ProcessorName,
  livemode: opened.config.livemode,
  credentials: Credentials.masked(opened.credentials),
  surcharge: opened.config.surcharge,
  webhookUrl: webhookPath(
    Tenant.make(opened.config.accountId, opened.config.livemode),
    opened.config.processor
  ),
  created: opened.config.created,
  updated: opened.config.updated
})

export const deleted = (removed: ProcessorConfig): Wire.DeletedProcessorConfig => ({
  object: "processor_config",
  processor: removed.processor as Wire.ProcessorName,
  livemode: removed.livemode,
  deleted: true
})
