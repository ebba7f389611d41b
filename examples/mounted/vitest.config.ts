import { defineProject } from "vitest/config"

export default defineProject({
  test: { name: "example-mounted", include: ["test/**/*.test.ts"] }
})
