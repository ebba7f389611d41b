/**
 * The webhook URL guard (docs/design.md §8): what each mode accepts, every internal address
 * range refused (also IPv4-mapped and behind a name), and DNS failures as 400s.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as UrlGuard from "../src/webhookEndpoints/UrlGuard.js"

const live = { livemode: true }
/** Test mode on a server run for development (loopback allowed) and on one that is not. */
const test = { livemode: false, allowLoopback: true }
const testProduction = { livemode: false }

/** A resolver that answers from a table and fails for anything else. */
const fakeDns =
  (table: Record<string, ReadonlyArray<string>>): UrlGuard.Lookup =>
  async (host) => {
    const found = table[host]
    if (found === undefined)
      throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" })
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
  }

const DNS = fakeDns({
  "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"],
  "sneaky.example.com": ["93.184.216.34", "10.1.2.3"],
  "internal.example.com": ["fd12::1"],
  "loop.example.com": ["127.0.0.1"],
  "empty.example.com": [],
  localhost: ["127.0.0.1", "::1"]
})

const refusal = (url: string, options: UrlGuard.Mode) =>
  Effect.runPromise(Effect.either(UrlGuard.check(url, { ...options, lookup: DNS })))

const expectRefused = async (url: string, options: UrlGuard.Mode) => {
  const result = await refusal(url, options)
  expect(Either.isLeft(result), url).toBe(true)
  if (Either.isLeft(result)) {
    expect(result.left).toMatchObject({ _tag: "WebhookUrlRefused", url })
  }
  return Either.isLeft(result) ? result.left.message : ""
}

describe("UrlGuard.check", () => {
  it("accepts public https URLs in live mode, with every resolved address", async () => {
    const result = await Effect.runPromise(
      UrlGuard.check("https://hooks.example.com/levy?x=1", { ...live, lookup: DNS })
    )
    expect(result.host).toBe("hooks.example.com")
    expect(result.addresses.map((a) => a.address)).toEqual(["93.184.216.34", "2606:2800:220:1::1"])
    expect(result.url.pathname).toBe("/levy")
    const literal = await Effect.runPromise(UrlGuard.check("https://93.184.216.34/hook", live))
    expect(literal.addresses).toEqual([{ address: "93.184.216.34", family: 4 }])
  })

  it("refuses anything but an absolute http(s) URL of at most 2048 characters", async () => {
    for (const url of ["not a url", "/relative", "ftp://example.com/x", "file:///etc/passwd"]) {
      await expectRefused(url, test)
    }
    const long = `http://localhost/${"a".repeat(2048)}`
    expect(await expectRefused(long, test)).toContain("2048")
    const ok = `http://localhost/${"a".repeat(2048 - "http://localhost/".length)}`
    expect(Either.isRight(await refusal(ok, test))).toBe(true)
  })

  it("live mode: https only", async () => {
    expect(await expectRefused("http://hooks.example.com/x", live)).toContain("https")
    expect(Either.isRight(await refusal("http://hooks.example.com/x", test))).toBe(true)
  })

  it("live mode refuses loopback, private, link-local, CGNAT, unspecified and metadata addresses", async () => {
    for (const url of [
      "https://127.0.0.1/x",
      "https://127.1/x",
      "https://2130706433/x",
      "https://[::1]/x",
      "https://10.0.0.1/x",
      "https://172.16.5.4/x",
      "https://172.31.255.255/x",
      "https://192.168.1.1/x",
      "https://[fc00::1]/x",
      "https://[fd12:3456::1]/x",
      "https://169.254.169.254/latest/meta-data",
      "https://169.254.1.1/x",
      "https://[fe80::1]/x",
      "https://[fd00:ec2::254]/x",
      "https://100.64.0.1/x",
      "https://100.127.255.254/x",
      "https://0.0.0.0/x",
      "https://[::]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[::ffff:10.0.0.1]/x",
      "https://[::ffff:169.254.169.254]/x"
    ]) {
      await expectRefused(url, live)
    }
    expect(await expectRefused("https://169.254.169.254/", live)).toContain("metadata")
  })

  it("special-purpose, reserved, multicast, broadcast, NAT64 and 6to4 addresses are refused", async () => {
    // Each of these passed the guard.
    for (const url of [
      "https://[64:ff9b::a00:1]/x", // NAT64 of 10.0.0.1
      "https://[64:ff9b::7f00:1]/x", // NAT64 of 127.0.0.1
      "https://[2002:a00:1::1]/x", // 6to4 of 10.0.0.1
      "https://[2002:7f00:1::1]/x",
      "https://192.0.0.1/x",
      "https://198.18.0.1/x",
      "https://198.19.255.254/x",
      "https://240.0.0.1/x",
      "https://224.0.0.1/x",
      "https://239.255.255.250/x",
      "https://[ff02::1]/x",
      "https://255.255.255.255/x"
    ]) {
      await expectRefused(url, live)
      await expectRefused(url.replace("https:", "http:"), test)
    }
  })

  it("neighbours of the refused ranges are public", async () => {
    for (const url of [
      "https://172.32.0.1/x",
      "https://172.15.255.255/x",
      "https://100.128.0.1/x",
      "https://11.0.0.1/x",
      "https://192.0.1.1/x",
      "https://198.20.0.1/x",
      "https://223.255.255.254/x",
      "https://[2606:4700:4700::1111]/x",
      "https://[::ffff:93.184.216.34]/x",
      "https://[2a00:1450:4001::1]/x"
    ]) {
      expect(Either.isRight(await refusal(url, live)), url).toBe(true)
    }
  })

  it("only global unicast: IPv4-compatible, SIIT, site-local, discard, Teredo and documentation IPv6 are refused", async () => {
    // The second security review, item 10: the first five passed the hand-kept tables in
    // live mode. Each is classified by ipaddr.js's ranges now, and only global unicast passes.
    for (const url of [
      "https://[::7f00:1]/x", // IPv4-compatible ::127.0.0.1 (deprecated)
      "https://[::ffff:0:7f00:1]/x", // SIIT (RFC 6145) of 127.0.0.1
      "https://[fec0::1]/x", // site-local (deprecated)
      "https://[100::1]/x", // discard-only
      "https://[2001::5efe:7f00:1]/x", // Teredo, carrying 127.0.0.1
      "https://[::a00:1]/x", // IPv4-compatible 10.0.0.1
      "https://[2001:db8::1]/x", // documentation
      "https://[3fff::1]/x", // documentation (RFC 9637)
      "https://[5f00::1]/x", // SRv6 SIDs
      "https://[2001:2::1]/x", // benchmarking
      "https://[64:ff9b:1::a00:1]/x", // local-use NAT64 (RFC 8215)
      "https://[4000::1]/x", // unassigned, outside 2000::/3
      "https://192.0.2.1/x", // TEST-NET-1
      "https://198.51.100.7/x", // TEST-NET-2
      "https://203.0.113.9/x", // TEST-NET-3
      "https://[::ffff:192.0.2.1]/x"
    ]) {
      await expectRefused(url, live)
      await expectRefused(url.replace("https:", "http:"), test)
    }
    // A name is judged by what it resolves to, the same way.
    const teredo = await Effect.runPromise(
      Effect.either(
        UrlGuard.check("https://relay.example.com/x", {
          ...live,
          lookup: fakeDns({ "relay.example.com": ["2001::5efe:7f00:1"] })
        })
      )
    )
    expect(Either.isLeft(teredo) && teredo.left.message).toContain("translates to IPv4")
  })

  it("a URL must be sendable as written: credentials that decode, a port that can be reached", async () => {
    // The second security review, item 8: `%zz` was accepted, and the sender then threw on
    // every delivery, recording nothing.
    for (const url of [
      "http://%zz@127.0.0.1:4242/x",
      "http://user:%zz@127.0.0.1:4242/x",
      "http://%C3@127.0.0.1:4242/x",
      "https://%zz@hooks.example.com/x"
    ]) {
      expect(await expectRefused(url, url.startsWith("https") ? live : test)).toContain(
        "percent-encoding"
      )
    }
    expect(await expectRefused("http://127.0.0.1:0/x", test)).toContain("port")
    expect(await expectRefused("http://127.0.0.1:65536/x", test)).toContain("absolute")
    const encoded = await Effect.runPromise(
      UrlGuard.check("https://us%20er:p%40ss@hooks.example.com/x", { ...live, lookup: DNS })
    )
    expect(UrlGuard.authorizationOf(encoded.url)).toBe(
      `Basic ${Buffer.from("us er:p@ss").toString("base64")}`
    )
  })

  it("refuses a name when any address it resolves to is internal", async () => {
    expect(await expectRefused("https://sneaky.example.com/x", live)).toContain("10.1.2.3")
    await expectRefused("https://internal.example.com/x", live)
    await expectRefused("https://loop.example.com/x", live)
    // The real resolver: localhost is loopback.
    const real = await Effect.runPromise(
      Effect.either(UrlGuard.check("https://localhost/hook", live))
    )
    expect(Either.isLeft(real) && real.left).toMatchObject({ _tag: "WebhookUrlRefused" })
  })

  it("test mode on a server not run for development refuses loopback (no probing its own ports)", async () => {
    // A test key made the server POST to its own loopback and read back
    // status, error and timing.
    for (const url of [
      "http://localhost:5432/hook",
      "http://127.0.0.1:6379/hook",
      "http://[::1]:22/hook",
      "http://[::ffff:127.0.0.1]:5432/hook",
      "http://loop.example.com/hook"
    ]) {
      expect(await expectRefused(url, testProduction)).toContain("levy serve --dev")
    }
    await expectRefused("http://localhost:4242/hook", { livemode: false, allowLoopback: false })
  })

  it("test mode on a development server allows http and loopback, never private, link-local or metadata", async () => {
    for (const url of [
      "http://localhost:4242/hook",
      "http://127.0.0.1:4242/hook",
      "http://[::1]:4242/hook",
      "http://loop.example.com/hook"
    ]) {
      const result = await Effect.runPromise(
        Effect.either(
          UrlGuard.check(url, {
            ...test,
            lookup: url.includes("localhost") ? UrlGuard.systemLookup : DNS
          })
        )
      )
      expect(Either.isRight(result), url).toBe(true)
    }
    for (const url of [
      "http://10.0.0.1/x",
      "http://192.168.0.10/x",
      "http://169.254.169.254/x",
      "http://[fe80::1]/x",
      "http://[::ffff:192.168.0.1]/x",
      "http://100.64.0.1/x",
      "http://internal.example.com/x"
    ]) {
      await expectRefused(url, test)
    }
  })

  it("a name that does not resolve, or to nothing, is a 400 saying so", async () => {
    expect(await expectRefused("https://nowhere.example.com/x", live)).toContain(
      "could not be resolved"
    )
    expect(await expectRefused("https://empty.example.com/x", live)).toContain("no address")
  })
})
