/**
 * `pnpm --filter @levy/example-in-process start [dataDir]`: the checkout on the memory store,
 * or on the embedded store (PGlite) in `dataDir` when one is given; then exit.
 */
import { LevyService } from "@levy/engine"
import { Effect, Layer } from "effect"
import { checkout } from "./checkout.js"

const dataDir = process.argv[2]
const store = LevyService.store(
  dataDir === undefined ? { store: "memory" } : { store: "embedded", dataDir }
)

await Effect.runPromise(
  checkout(console.log).pipe(Effect.provide(LevyService.layer.pipe(Layer.provide(store))))
)
