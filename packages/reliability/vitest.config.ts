import { defineProject } from "vitest/config"

// The scenarios kill servers and restart PostgreSQL: one file at a time, and `pnpm test` runs
// this project alone, after the others (scripts/test.ts).
export default defineProject({
  test: {
    name: "reliability",
    // The `levy` executable its tests start, bundled once per run (scripts/levyBinary.ts).
    globalSetup: ["../../scripts/levyBinarySetup.ts"],
    include: ["test/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 60_000
  }
})
