import { defineProject } from "vitest/config"

export default defineProject({
  // Packing builds every package and npm installs from the registry: minutes, not seconds.
  test: {
    name: "consumer",
    include: ["test/**/*.test.ts"],
    hookTimeout: 600_000,
    testTimeout: 120_000
  }
})
