import { defineProject } from "vitest/config"

// Tests here start real servers, stores and CLI processes, and wait for webhook deliveries up
// to 20 s (`eventually`, test/WebhooksSupport.ts): on a loaded 2-core machine one test can take
// more than vitest's 5 s default without anything being wrong. (A live fee change no longer
// adds to it: deciding a raise went from ~1.4 s to ~0.3 s of CPU, docs/performance.md.) A
// timeout is not a speed check (benchmarks are); this one only catches a hang.
export default defineProject({
  test: {
    name: "server",
    // The `levy` executable its tests start, bundled once per run (scripts/levyBinary.ts).
    globalSetup: ["../../scripts/levyBinarySetup.ts"],
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
