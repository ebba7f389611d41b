/**
 * `/v1/processor-config` over HTTP (docs/design.md §4): save, retrieve and delete the processor
 * of the key's account and mode, and read, approve or cancel a live-mode change held for
 * approval; each the workflow of its own file, the request's key naming who acts.
 */
import { CurrentKey } from "@levy/api"
import { approveProcessorChange } from "@levy/engine/processorConfigs/approveProcessorChange.js"
import { cancelProcessorChange } from "@levy/engine/processorConfigs/cancelProcessorChange.js"
import { deleteProcessorConfig } from "@levy/engine/processorConfigs/deleteProcessorConfig.js"
import {
  retrievePendingProcessorChange,
  retrieveProcessorConfig
} from "@levy/engine/processorConfigs/retrieveProcessorConfig.js"
import { saveProcessorConfig } from "@levy/engine/processorConfigs/saveProcessorConfig.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Handle from "./Handle.js"

/** The id of the request's key: who requests, approves or cancels a change. */
const keyId = Effect.map(CurrentKey.CurrentKey, (key) => key.keyId)

export const ProcessorConfigsLive = ApiHandlers.group("processorConfig", (handlers) =>
  handlers
    .handle("create", ({ payload }) =>
      Effect.flatMap(keyId, (by) =>
        Handle.write((tenant, claim) => saveProcessorConfig(tenant, payload, { by }, claim))
      )
    )
    .handle("retrieve", () => Handle.read(retrieveProcessorConfig))
    .handle("delete", () =>
      Effect.flatMap(keyId, (by) =>
        Handle.write((tenant, claim) => deleteProcessorConfig(tenant, { by }, claim))
      )
    )
    .handle("retrievePending", () => Handle.read(retrievePendingProcessorChange))
    .handle("approvePending", ({ payload }) =>
      Effect.flatMap(keyId, (by) =>
        Handle.write((tenant, claim) => approveProcessorChange(tenant, payload.id, by, claim))
      )
    )
    .handle("cancelPending", () => Handle.write(cancelProcessorChange))
)
