/** Auto-pagination over 250 charges: every charge once, newest first, across three pages. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Levy } from "../src/index.js"
import { SECRET, start, WINDOW } from "./support.js"

const COUNT = 250

describe("for await over levy.charges.list", () => {
  let server: Awaited<ReturnType<typeof start>>
  let levy: Levy
  let created: Array<string>
  beforeAll(async () => {
    // 250 creations and the listings would exceed the development limit of 100 a minute
    server = await start({ edge: { test: 10_000, window: WINDOW } })
    levy = new Levy(SECRET, { baseUrl: server.url })
    created = []
    for (let i = 0; i < COUNT; i++) {
      const charge = await levy.charges.create({
        amount: 1000 + i,
        currency: "usd",
        customer: "cus_pages"
      })
      created.push(charge.id)
    }
  }, 60_000)
  afterAll(() => server.close())

  it("walks every page with starting_after", async () => {
    const seen: Array<string> = []
    for await (const charge of levy.charges.list({ limit: 100, customer: "cus_pages" })) {
      seen.push(charge.id)
    }
    expect(seen).toHaveLength(COUNT)
    expect(new Set(seen).size).toBe(COUNT)
    expect(new Set(seen)).toEqual(new Set(created))
  })

  it("the first page and nextPage", async () => {
    const first = await levy.charges.list({ limit: 100 })
    expect(first.data).toHaveLength(100)
    expect(first.has_more).toBe(true)
    const second = await first.nextPage()
    const third = await second?.nextPage()
    expect(second?.data).toHaveLength(100)
    expect(third?.data).toHaveLength(50)
    expect(third?.has_more).toBe(false)
    expect(third?.nextPage()).toBeUndefined()
    expect(
      new Set([...first.data, ...(second?.data ?? []), ...(third?.data ?? [])].map((c) => c.id))
        .size
    ).toBe(COUNT)
  })

  it("pages backwards from ending_before", async () => {
    const all = (await levy.charges.list({ limit: 100 })).data
    const pivot = all[60]?.id ?? ""
    const newer: Array<string> = []
    for await (const charge of levy.charges.list({ limit: 25, ending_before: pivot })) {
      newer.push(charge.id)
    }
    expect(new Set(newer)).toEqual(new Set(all.slice(0, 60).map((c) => c.id)))
    // One order across the pages: oldest to newest, the list's own order reversed (not
    // page by page newest first, which would jump back at every page boundary).
    expect(newer).toStrictEqual(
      all
        .slice(0, 60)
        .map((c) => c.id)
        .reverse()
    )
  })
})
