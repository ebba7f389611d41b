import { defineProject } from "vitest/config"

// Engine tests run the workflows on a store with no HTTP server and no `levy` process.
export default defineProject({
  test: {
    name: "engine",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
