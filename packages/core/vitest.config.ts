import { defineProject } from "vitest/config"

// The property tests run hundreds of engine calls each and take ~4 s alone; with the suite's
// other files beside them on a 2-core machine they pass 5 s. A timeout only catches a hang
// (speed is measured by `pnpm bench`), so it is set well above their time under load.
export default defineProject({
  test: {
    name: "core",
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 60_000
  }
})
