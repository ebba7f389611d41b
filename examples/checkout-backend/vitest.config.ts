import { defineProject } from "vitest/config"

export default defineProject({
  test: { name: "example-checkout-backend", include: ["test/**/*.test.ts"] }
})
