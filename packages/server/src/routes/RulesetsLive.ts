/**
 * Handlers of the rulesets group: the ruleset's released versions (docs/design.md §3), oldest
 * first, and one of them; an unknown version is a 404 listing the known ones. No storage.
 */
import { ApiError, List, RulesetVersion } from "@levy/api"
import { RulesetVersions } from "@levy/core"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"

const URL_PATH = "/v1/rulesets"

export const RulesetsLive = ApiHandlers.group("rulesets", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.sync(() =>
        List.make(RulesetVersions.all.map(RulesetVersion.fromEngine), false, URL_PATH)
      )
    )
    .handle("retrieve", ({ path }) => {
      const release = RulesetVersions.find(path.version)
      return release === undefined
        ? Effect.fail(
            new ApiError.NotFoundError({
              message: RulesetVersions.unknownMessage(path.version),
              param: "version"
            })
          )
        : Effect.succeed(RulesetVersion.fromEngine(release))
    })
)
