/**
 * Whether test-mode webhook endpoints may target loopback (`localhost`, `127.0.0.1`, `[::1]`),
 * so a developer receives events on their own machine (docs/design.md §8). Only a server run
 * for development allows it (`levy serve --dev`, the default on the embedded and memory
 * stores); otherwise a test key could make the server probe its own host's ports.
 */
import { Context } from "effect"

export class LoopbackTargets extends Context.Reference<LoopbackTargets>()(
  "@levy/engine/LoopbackTargets",
  { defaultValue: () => false }
) {}
