/**
 * `/v1/processor-config` over HTTP (docs/design.md §4): save, retrieve and delete the processor
 * of the key's account and mode, each the workflow of its own file.
 */

import * as ApiHandlers from "../ApiHandlers.js"
import * as Handle from "../Handle.js"
import { deleteProcessorConfig } from "./deleteProcessorConfig.js"
import { retrieveProcessorConfig } from "./retrieveProcessorConfig.js"
import { saveProcessorConfig } from "./saveProcessorConfig.js"

export const ProcessorConfigsLive = ApiHandlers.group("processorConfig", (handlers) =>
  handlers
    .handle("create", ({ payload }) =>
      Handle.write((tenant, claim) => saveProcessorConfig(tenant, payload, claim))
    )
    .handle("retrieve", () => Handle.read(retrieveProcessorConfig))
    .handle("delete", () => Handle.write(deleteProcessorConfig))
)
