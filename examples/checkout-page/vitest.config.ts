import { defineProject } from "vitest/config"

export default defineProject({
  test: { name: "example-checkout-page", include: ["test/**/*.test.ts"] }
})
