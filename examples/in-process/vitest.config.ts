import { defineProject } from "vitest/config"

export default defineProject({
  test: { name: "example-in-process", include: ["test/**/*.test.ts"] }
})
