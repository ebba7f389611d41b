/**
 * The fee configuration over HTTP (docs/design.md §6): read, update, and approve or cancel a
 * held change; each the workflow of its own file, the request's key naming who acts. Every
 * change counts against the account's fee-configuration write limit first
 * (FeeConfigWriteLimit.ts, docs/design.md §9).
 */
import { CurrentKey } from "@levy/api"
import { approveFeeChange } from "@levy/engine/feeConfigs/approveFeeChange.js"
import { cancelFeeChange } from "@levy/engine/feeConfigs/cancelFeeChange.js"
import { retrieveFeeConfig } from "@levy/engine/feeConfigs/retrieveFeeConfig.js"
import { updateFeeConfig } from "@levy/engine/feeConfigs/updateFeeConfig.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as FeeConfigWriteLimit from "./FeeConfigWriteLimit.js"
import * as Handle from "./Handle.js"

/** The id of the request's key (who requests, approves or cancels a change), once counted. */
const keyId = Effect.zipRight(
  FeeConfigWriteLimit.count,
  Effect.map(CurrentKey.CurrentKey, (key) => key.keyId)
)

export const FeeConfigsLive = ApiHandlers.group("feeConfigs", (handlers) =>
  handlers
    .handle("retrieve", () => Handle.read(retrieveFeeConfig))
    .handle("update", ({ payload }) =>
      Effect.flatMap(keyId, (by) =>
        Handle.write((tenant, claim) => updateFeeConfig(tenant, payload, by, claim))
      )
    )
    .handle("approvePending", ({ payload }) =>
      Effect.flatMap(keyId, (by) =>
        Handle.write((tenant, claim) => approveFeeChange(tenant, payload.id, by, claim))
      )
    )
    .handle("cancelPending", () =>
      Effect.flatMap(keyId, (by) =>
        Handle.write((tenant, claim) => cancelFeeChange(tenant, by, claim))
      )
    )
)
