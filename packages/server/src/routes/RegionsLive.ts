/**
 * Handlers of the regions group over the engine's regions (listRegions.ts, retrieveRegion.ts,
 * checkCompliance.ts): the list (cursor = region code), one region, and the compliance check
 * by the ruleset version the account pins (docs/design.md §3).
 */
import { List } from "@levy/api"
import { checkCompliance } from "@levy/engine/regions/checkCompliance.js"
import { listRegions } from "@levy/engine/regions/listRegions.js"
import { retrieveRegion } from "@levy/engine/regions/retrieveRegion.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/regions"

export const RegionsLive = ApiHandlers.group("regions", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", ({ urlParams }) =>
        Effect.map(
          Handle.read(() =>
            listRegions({
              limit: urlParams.limit,
              startingAfter: urlParams.starting_after,
              endingBefore: urlParams.ending_before,
              country: urlParams.country,
              date: urlParams.date
            })
          ),
          (page) => List.make(page.data, page.hasMore, URL_PATH)
        )
      )
      .handle("retrieve", ({ path, urlParams }) =>
        Handle.read(() => retrieveRegion(path.code, urlParams))
      )
      .handle("checkCompliance", ({ payload }) =>
        Handle.read((tenant) => checkCompliance(tenant, payload))
      )
  )
)
