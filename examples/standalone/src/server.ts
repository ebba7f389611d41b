/**
 * The Levy server in this process, on an in-memory store, with one account created the way
 * `levy serve` creates the development account: its four keys are returned once.
 */
import * as HttpServer from "@effect/platform/HttpServer"
import { ComplianceRules } from "@levy/core"
import {
  Accounts,
  KeyResolverStorage,
  PaymentProcessors,
  RateLimitStore,
  Server
} from "@levy/server"
import { Ids, Storage } from "@levy/storage"
import { Layer, ManagedRuntime } from "effect"

export interface Running {
  readonly url: string
  readonly account: Accounts.Created
  readonly close: () => Promise<void>
}

/** Starts the server on `port` (0: any free port) and creates an account named `name`. */
export const startServer = async (
  options: { readonly port?: number; readonly name?: string } = {}
): Promise<Running> => {
  const store = Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))
  const server = Server.layer({ port: options.port ?? 0, host: "127.0.0.1" }).pipe(
    Layer.provide([
      KeyResolverStorage.layer(),
      RateLimitStore.layerMemory,
      ComplianceRules.Live,
      PaymentProcessors.PaymentProcessors.layerTestOnly
    ]),
    Layer.provideMerge(store)
  )
  const runtime = ManagedRuntime.make(server)
  const { address } = await runtime.runPromise(HttpServer.HttpServer)
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  // the same store instance the server uses, so the account's keys work at once
  const account = await runtime.runPromise(Accounts.create(options.name ?? "Standalone example"))
  return { url: `http://127.0.0.1:${address.port}`, account, close: () => runtime.dispose() }
}
