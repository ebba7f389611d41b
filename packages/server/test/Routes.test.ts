/** The request path the edge routes by: cut from plain URLs, parsed from any other. */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { pathnameOf } from "../src/http/Routes.js"

/**
 * The parser's path; where the parser throws (`//`, a host with no name), the target before its
 * query, which names no route (pathnameOf never throws: the edge answers a 404, not a 500).
 */
const parsed = (url: string) => {
  try {
    return new URL(url, "http://levy.invalid").pathname
  } catch {
    return url.split("?")[0]
  }
}
const cut = (url: string) => {
  try {
    return pathnameOf({ url })
  } catch (error) {
    return String(error)
  }
}

describe("pathnameOf", () => {
  it("is the URL parser's path for any request target", () => {
    const segment = fc.stringOf(
      fc.constantFrom(
        "a",
        "Z",
        "0",
        "_",
        "-",
        ".",
        "%",
        "2",
        "e",
        "/",
        "\\",
        "?",
        "#",
        "&",
        "=",
        " ",
        "é"
      ),
      { maxLength: 8 }
    )
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.boolean(), (segments, query) => {
        const url = `/${segments.join("/")}${query ? "?limit=1" : ""}`
        expect(cut(url)).toBe(parsed(url))
      }),
      { numRuns: 2_000 }
    )
  })

  it("cuts plain paths and parses the rest alike", () => {
    for (const url of [
      "/v1/estimates",
      "/v1/charges/ch_1?limit=2",
      "/",
      "/?x",
      "/v1/charges/",
      "//evil/v1/charges",
      "/v1/../v1/charges",
      "/v1/%63harges",
      "/v1/charges#frag"
    ]) {
      expect(cut(url)).toBe(parsed(url))
    }
  })
})
