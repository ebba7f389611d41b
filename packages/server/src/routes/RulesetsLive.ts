/**
 * Handlers of the rulesets group: the ruleset's released versions (docs/design.md §3), oldest
 * first, and one of them (listRulesets.ts, retrieveRuleset.ts); an unknown version is a 404
 * listing the known ones. No storage.
 */
import { List } from "@levy/api"
import { listRulesets } from "@levy/engine/rulesets/listRulesets.js"
import { retrieveRuleset } from "@levy/engine/rulesets/retrieveRuleset.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/rulesets"

export const RulesetsLive = ApiHandlers.group("rulesets", (handlers) =>
  handlers
    .handle("list", () => Effect.sync(() => List.make(listRulesets(), false, URL_PATH)))
    .handle("retrieve", ({ path }) => Handle.read(() => retrieveRuleset(path.version)))
)
