/** `levy` sets V8's heap growing factor at start-up unless node's command line already does (HeapGrowth.ts). */
import { describe, expect, it } from "@effect/vitest"
import * as HeapGrowth from "../src/HeapGrowth.js"

describe("HeapGrowth.isSetBy", () => {
  it("finds the operator's own setting, in either spelling", () => {
    expect(HeapGrowth.isSetBy(["--heap-growing-percent=50"])).toBe(true)
    expect(HeapGrowth.isSetBy(["--enable-source-maps", "--heap_growing_percent=20"])).toBe(true)
  })

  it("leaves it to Levy otherwise", () => {
    expect(HeapGrowth.isSetBy([])).toBe(false)
    expect(HeapGrowth.isSetBy(["--max-old-space-size=512", "--heap-growing-percentage=5"])).toBe(
      false
    )
  })
})
