// PLACEHOLDER (replaced before landing): the disputes group's handlers.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { ServerApi } from "../ServerApi.js"

export const DisputesLive = HttpApiBuilder.group(ServerApi, "disputes", (handlers) =>
  Effect.succeed(
    handlers
      .handle("retrieve", () => Effect.dieMessage("not implemented"))
      .handle("list", () => Effect.dieMessage("not implemented"))
  )
)
