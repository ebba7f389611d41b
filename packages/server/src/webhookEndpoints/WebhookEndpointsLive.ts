// PLACEHOLDER (replaced before landing): the webhookEndpoints group's handlers.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { ServerApi } from "../ServerApi.js"

export const WebhookEndpointsLive = HttpApiBuilder.group(
  ServerApi,
  "webhookEndpoints",
  (handlers) =>
    Effect.succeed(
      handlers
        .handle("create", () => Effect.dieMessage("not implemented"))
        .handle("list", () => Effect.dieMessage("not implemented"))
        .handle("retrieve", () => Effect.dieMessage("not implemented"))
        .handle("update", () => Effect.dieMessage("not implemented"))
        .handle("delete", () => Effect.dieMessage("not implemented"))
        .handle("rollSecret", () => Effect.dieMessage("not implemented"))
        .handle("listDeliveries", () => Effect.dieMessage("not implemented"))
    )
)
