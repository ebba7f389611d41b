// Every package and every example with tests is one vitest project; `pnpm test` runs them all.
export default ["packages/*/vitest.config.ts", "examples/*/vitest.config.ts"]
