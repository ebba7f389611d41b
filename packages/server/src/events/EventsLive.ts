// PLACEHOLDER (replaced before landing): the events group's handlers.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { ServerApi } from "../ServerApi.js"

export const EventsLive = HttpApiBuilder.group(ServerApi, "events", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", () => Effect.dieMessage("not implemented"))
      .handle("retrieve", () => Effect.dieMessage("not implemented"))
      .handle("resend", () => Effect.dieMessage("not implemented"))
  )
)
