import { defineProject } from "vitest/config"

// The scenarios kill servers and restart PostgreSQL: one file at a time, and `pnpm test` runs
// this project alone, after the others (scripts/test.ts).
export default defineProject({
  test: {
    name: "reliability",
    include: ["test/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 60_000
  }
})
