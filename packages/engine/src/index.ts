/**
 * @levy/engine: every workflow of Levy and its guarantees, with no HTTP — estimates and
 * quotes, charges, refunds, disputes, the fee and processor configurations and their
 * approvals, webhook endpoints and delivery, events, keys — and the background work they
 * need (recovery of pending charges and refunds, webhook dispatch, housekeeping, notices of
 * changes of the law). `LevyService` is its front for a caller in the same process; the
 * HTTP API and the `levy` CLI (@levy/server) are doors onto the same workflows
 * (docs/architecture.md).
 */

export * as Accounts from "./access/Accounts.js"
export * as DevAccount from "./access/DevAccount.js"
export * as Keys from "./access/Keys.js"
export * as EngineServices from "./EngineServices.js"
export * as LevyService from "./inprocess/LevyService.js"
export * as PaymentProcessor from "./processors/PaymentProcessor.js"
export * as PaymentProcessors from "./processors/PaymentProcessors.js"
export * as Simulator from "./processors/simulator/Simulator.js"
export * as Store from "./Store.js"
export type { WorkflowError } from "./WorkflowError.js"
export * as DispatcherLayer from "./webhookDeliveries/DispatcherLayer.js"
export * as UrlGuard from "./webhookEndpoints/UrlGuard.js"
