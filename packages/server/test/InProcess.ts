/** Levy in-process (LevyService) on a fresh memory store, for tests that compare it with HTTP. */

import * as LevyService from "@levy/engine/inprocess/LevyService.js"
import type { Tenant } from "@levy/storage"
import { Cause, type Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import { memoryStore } from "./support.js"

/** What `test` gets: the service, a test-mode tenant of a new account, and the typed failure of a call. */
export interface InProcess {
  readonly levy: LevyService.Service
  readonly tenant: Tenant.Tenant
  /** The typed failure of `effect`, which must fail (a success or a defect fails the test). */
  readonly failureOf: <A, E>(effect: Effect.Effect<A, E>) => Promise<E>
}

/** Runs `test` against a fresh LevyService, disposed after. */
export const withLevy = async (test: (inProcess: InProcess) => Promise<void>): Promise<void> => {
  const runtime = ManagedRuntime.make(LevyService.layer.pipe(Layer.provideMerge(memoryStore())))
  try {
    const levy = await runtime.runPromise(LevyService.LevyService)
    const account = await runtime.runPromise(levy.accounts.create("Shop"))
    const failureOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<E> => {
      const exit = await runtime.runPromiseExit(effect)
      if (Exit.isSuccess(exit)) throw new Error("expected a failure, got a success")
      // A failure of the layer (its configuration) fails the test as any other would.
      return Option.getOrThrow(Cause.failureOption(exit.cause)) as E
    }
    await test({ levy, tenant: LevyService.tenant(account.accountId, "test"), failureOf })
  } finally {
    await runtime.dispose()
  }
}
