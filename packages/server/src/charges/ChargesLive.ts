// PLACEHOLDER (replaced before landing): the charges group's handlers.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { ServerApi } from "../ServerApi.js"

export const ChargesLive = HttpApiBuilder.group(ServerApi, "charges", (handlers) =>
  Effect.succeed(
    handlers
      .handle("create", () => Effect.dieMessage("not implemented"))
      .handle("retrieve", () => Effect.dieMessage("not implemented"))
      .handle("list", () => Effect.dieMessage("not implemented"))
  )
)
