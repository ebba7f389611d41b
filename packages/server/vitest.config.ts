import { defineProject } from "vitest/config"

// Tests here start real servers and stores, and a live fee change runs the engine over tens of
// thousands of charges (feeConfigs/FeeRaise.ts): on a loaded 2-core machine one test can take
// more than vitest's 5 s default without anything being wrong. A timeout is not a speed check
// (benchmarks are); this one only catches a hang.
export default defineProject({
  test: {
    name: "server",
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
