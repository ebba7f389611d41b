// PLACEHOLDER (replaced before landing): the refunds group's handlers.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { ServerApi } from "../ServerApi.js"

export const RefundsLive = HttpApiBuilder.group(ServerApi, "refunds", (handlers) =>
  Effect.succeed(
    handlers
      .handle("create", () => Effect.dieMessage("not implemented"))
      .handle("retrieve", () => Effect.dieMessage("not implemented"))
      .handle("list", () => Effect.dieMessage("not implemented"))
  )
)
