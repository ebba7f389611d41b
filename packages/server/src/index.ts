/**
 * @levy/server: the doors onto @levy/engine — the `/v1` HTTP API (the edge and one route
 * group per resource), its mounting into another Node app (`Mount`), and the `levy` CLI.
 * The engine's front is re-exported for apps that import it from here.
 */

export {
  Accounts,
  DevAccount,
  Keys,
  LevyService,
  PaymentProcessor,
  PaymentProcessors,
  Simulator,
  UrlGuard
} from "@levy/engine"
export * as FeeConfig from "@levy/engine/feeConfigs/Config.js"
export * as ApiServices from "./ApiServices.js"
export { AuthorizationLive } from "./access/AuthorizationLive.js"
export * as KeyResolver from "./access/KeyResolver.js"
export * as KeyResolverStorage from "./access/KeyResolverStorage.js"
export { RequestKey } from "./access/RequestKey.js"
export * as Dashboard from "./http/Dashboard.js"
export * as Docs from "./http/Docs.js"
export * as Edge from "./http/Edge.js"
export * as EdgeConfig from "./http/EdgeConfig.js"
export * as RateLimitStore from "./http/RateLimitStore.js"
export * as Routes from "./http/Routes.js"
export { ServerApi } from "./http/ServerApi.js"
export type { MountedLevy } from "./Mount.js"
export * as Mount from "./Mount.js"
export { ChargesLive } from "./routes/ChargesLive.js"
export { DisputesLive } from "./routes/DisputesLive.js"
export { EstimatesLive } from "./routes/EstimatesLive.js"
export { EventsLive } from "./routes/EventsLive.js"
export { FeeConfigsLive } from "./routes/FeeConfigsLive.js"
export * as Idempotency from "./routes/HandlerIdempotency.js"
export { RefundsLive } from "./routes/RefundsLive.js"
export { RegionsLive } from "./routes/RegionsLive.js"
export { RulesetsLive } from "./routes/RulesetsLive.js"
export { WebhookEndpointsLive } from "./routes/WebhookEndpointsLive.js"
export * as Server from "./Server.js"
