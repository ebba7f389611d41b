/** The request path the edge routes by: cut from plain URLs, parsed from any other. */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { pathnameOf } from "../src/http/Routes.js"

/** The parser's path, or the error it throws (`//`, a target naming another host, is invalid). */
const parsed = (url: string) => {
  try {
    return new URL(url, "http://levy.invalid").pathname
  } catch (error) {
    return String(error)
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
