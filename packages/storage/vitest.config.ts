import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "storage",
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
