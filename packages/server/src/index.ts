/** @levy/server: the `/v1` HTTP server (first slice: the edge and the regions endpoints). */

export { AuthorizationLive, EdgeKey } from "./AuthorizationLive.js"
export * as Edge from "./http/Edge.js"
export * as EdgeConfig from "./http/EdgeConfig.js"
export * as RateLimitStore from "./http/RateLimitStore.js"
export * as Routes from "./http/Routes.js"
export * as KeyResolver from "./KeyResolver.js"
export { RegionsLive } from "./regions/RegionsLive.js"
export * as Server from "./Server.js"
export { ServerApi } from "./ServerApi.js"
