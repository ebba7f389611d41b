/**
 * Webhook delivery end to end, on every store: endpoints created over HTTP, events made by
 * real requests (charges), a dispatcher delivering to a real receiver on 127.0.0.1 with
 * the test schedule. Signatures are checked by an independent HMAC (WebhooksSupport).
 */
import { verifyWebhook, WebhookVerificationError } from "@levy/api"
import { systemLookup } from "@levy/engine/webhookEndpoints/UrlGuard.js"
import { WebhookEndpointRepository } from "@levy/storage"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, STORES, startWithStore } from "./support.js"
import {
  type Answer,
  eventually,
  FAST,
  parseSignature,
  type Received,
  type Receiver,
  receiver,
  runDispatcher,
  signedWith
} from "./WebhooksSupport.js"

interface Created {
  readonly id: string
  readonly secret: string
}

interface WireDelivery {
  readonly eventType: string
  readonly status: string
  readonly attempts: ReadonlyArray<{ responseStatus: number | null; error: string | null }>
}

const bodyOf = (r: Received) =>
  JSON.parse(r.body) as { id: string; type: string; data: { object: { id: string } } }

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise
    return "accepted"
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookVerificationError)
    return (e as WebhookVerificationError).reason
  }
}

/** A deterministic coin, so the flaky receiver's pattern is the same on every run. */
const coin = (() => {
  let seed = 42
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    return seed / 2 ** 31
  }
})()

describe.each(STORES)("webhooks on the %s store", (_name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  let hooks: Receiver
  let dispatcher: { stop: () => Promise<void> }
  /** Per path, how the receiver answers (default 200). */
  const answers = new Map<string, (r: Received) => Answer>()

  beforeAll(async () => {
    server = await startWithStore(makeStore())
    hooks = await receiver((r) => answers.get(r.path)?.(r) ?? { status: 200 })
    const context = await server.store.runtime().then((r) => r.context)
    dispatcher = runDispatcher(context, {
      timeoutMs: 400,
      // Two names only this test knows: one now pointing into a private network, one at loopback.
      lookup: async (host) =>
        host === "rebound.invalid"
          ? [{ address: "10.0.0.1", family: 4 }]
          : host === "pinned.invalid"
            ? [{ address: "127.0.0.1", family: 4 }]
            : systemLookup(host)
    })
  }, 60_000)
  afterAll(async () => {
    await dispatcher.stop()
    await hooks.close()
    await server.close()
  })

  const at = (path: string) => hooks.received.filter((r) => r.path === path)

  const createEndpoint = async (path: string, enabledEvents: Array<string> = ["*"]) => {
    const reply = await call(server.url, "POST", "/v1/webhook-endpoints", {
      body: { url: `${hooks.url}${path}`, enabledEvents }
    })
    expect(reply.status).toBe(200)
    return reply.body as Created
  }

  const charge = async (source = "tok_visa") => {
    const reply = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 1000, currency: "usd", source }
    })
    expect(reply.status === 200 || reply.status === 402).toBe(true)
    return reply.body as { id: string } & { error?: { charge?: string } }
  }

  const deliveriesOf = async (endpoint: string) => {
    const reply = await call(
      server.url,
      "GET",
      `/v1/webhook-endpoints/${endpoint}/deliveries?limit=100`
    )
    expect(reply.status).toBe(200)
    return (reply.body as { data: Array<WireDelivery> }).data
  }

  const receivedFor = (path: string, chargeId: string) =>
    at(path).filter((r) => bodyOf(r).data.object.id === chargeId)

  it("a charge's event arrives signed, matching GET /v1/events; verifyWebhook checks it", async () => {
    const endpoint = await createEndpoint("/e2e", ["charge.succeeded"])
    await charge("tok_chargeDeclined")
    const ch = await charge()
    await eventually("the charge.succeeded delivery", () => receivedFor("/e2e", ch.id).length > 0)
    const request = receivedFor("/e2e", ch.id)[0]!
    const event = bodyOf(request)
    expect(event.type).toBe("charge.succeeded")
    expect(request.headers["content-type"]).toBe("application/json")
    expect(request.headers["webhook-id"]).toBe(event.id)
    // Signed with this endpoint's secret, by an HMAC computed here from the header format.
    expect(signedWith(request, endpoint.secret)).toBe(true)
    expect(signedWith(request, `${endpoint.secret}x`)).toBe(false)
    // The body is the event as the API shows it.
    const fetched = await call(server.url, "GET", `/v1/events/${event.id}`)
    expect(JSON.parse(request.body)).toEqual(fetched.body)

    const header = String(request.headers["service-signature"])
    expect((await verifyWebhook(request.body, header, endpoint.secret)).id).toBe(event.id)
    const tampered = request.body.replace('"amount":1000', '"amount":1')
    expect(tampered).not.toBe(request.body)
    expect(await rejection(verifyWebhook(tampered, header, endpoint.secret))).toBe(
      "no_matching_signature"
    )
    expect(await rejection(verifyWebhook(request.body, header, "whsec_dev_wrong"))).toBe(
      "no_matching_signature"
    )
    const { t } = parseSignature(header)
    expect(
      await rejection(verifyWebhook(request.body, header, endpoint.secret, 300, t + 301))
    ).toBe("timestamp_outside_tolerance")

    await eventually("the delivery recorded as succeeded", async () =>
      (await deliveriesOf(endpoint.id)).some((d) => d.status === "succeeded")
    )
    const deliveries = await deliveriesOf(endpoint.id)
    // Subscribed to charge.succeeded only: the declined charge's charge.failed was not queued.
    expect(deliveries.map((d) => d.eventType)).toEqual(["charge.succeeded"])
    expect(deliveries[0]!.attempts).toMatchObject([{ responseStatus: 200, error: null }])

    // A resend delivers the already delivered event again, signed afresh.
    expect((await call(server.url, "POST", `/v1/events/${event.id}/resend`)).status).toBe(200)
    await eventually("the resent delivery", () => receivedFor("/e2e", ch.id).length === 2)
    const resent = receivedFor("/e2e", ch.id)[1]!
    expect(resent.headers["webhook-id"]).toBe(event.id)
    expect(signedWith(resent, endpoint.secret)).toBe(true)
  })

  it("after roll-secret both the new and the old secret sign (two v1 entries)", async () => {
    const endpoint = await createEndpoint("/roll", ["charge.succeeded"])
    const rolled = await call(
      server.url,
      "POST",
      `/v1/webhook-endpoints/${endpoint.id}/roll-secret`
    )
    expect(rolled.status).toBe(200)
    const fresh = (rolled.body as Created).secret
    expect(fresh).not.toBe(endpoint.secret)
    const ch = await charge()
    await eventually("the delivery", () => receivedFor("/roll", ch.id).length > 0)
    const request = receivedFor("/roll", ch.id)[0]!
    const header = String(request.headers["service-signature"])
    expect(parseSignature(header).v1).toHaveLength(2)
    expect(signedWith(request, fresh)).toBe(true)
    expect(signedWith(request, endpoint.secret)).toBe(true)
    expect((await verifyWebhook(request.body, header, fresh)).type).toBe("charge.succeeded")
    expect((await verifyWebhook(request.body, header, endpoint.secret)).type).toBe(
      "charge.succeeded"
    )
  })

  it("410 Gone disables the endpoint; it gets nothing more", async () => {
    answers.set("/gone", () => ({ status: 410 }))
    const endpoint = await createEndpoint("/gone")
    const watcher = await createEndpoint("/watcher")
    await charge()
    // The endpoint is disabled at once; the attempt is recorded with the dispatcher's next
    // batch of outcomes, a moment later: wait for both.
    await eventually("the endpoint disabled and the attempt recorded", async () => {
      const reply = await call(server.url, "GET", `/v1/webhook-endpoints/${endpoint.id}`)
      const recorded = (await deliveriesOf(endpoint.id)).some(
        (d) => (d as { status: string }).status !== "pending"
      )
      return (reply.body as { status: string }).status === "disabled" && recorded
    })
    const deliveries = await deliveriesOf(endpoint.id)
    expect(deliveries).toHaveLength(1)
    expect(deliveries[0]).toMatchObject({ status: "failed", attempts: [{ responseStatus: 410 }] })
    const before = at("/gone").length
    const next = await charge()
    await eventually(
      "the next event at another endpoint",
      () => receivedFor("/watcher", next.id).length > 0
    )
    expect(at("/gone")).toHaveLength(before)
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1)
    expect((await deliveriesOf(watcher.id)).length).toBeGreaterThanOrEqual(2)
  })

  it("a 503 with Retry-After is retried no sooner than asked; a redirect is not followed", async () => {
    let busy = true
    answers.set("/busy", () => {
      if (!busy) return { status: 200 }
      busy = false
      return { status: 503, headers: { "retry-after": "1" } }
    })
    let moved = true
    answers.set("/moved", () => {
      if (!moved) return { status: 204 }
      moved = false
      return { status: 302, headers: { location: "/redirect-target" } }
    })
    const busyEndpoint = await createEndpoint("/busy", ["charge.succeeded"])
    const movedEndpoint = await createEndpoint("/moved", ["charge.succeeded"])
    const ch = await charge()
    await eventually("two attempts at /busy", () => receivedFor("/busy", ch.id).length >= 2)
    const [first, second] = receivedFor("/busy", ch.id)
    // The backoff alone would retry after ~50 ms; the receiver asked for 1 s.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000)
    await eventually("the busy delivery succeeded", async () =>
      (await deliveriesOf(busyEndpoint.id)).some((d) => d.status === "succeeded")
    )
    expect((await deliveriesOf(busyEndpoint.id))[0]!.attempts).toMatchObject([
      { responseStatus: 503 },
      { responseStatus: 200 }
    ])

    await eventually("the moved delivery succeeded", async () =>
      (await deliveriesOf(movedEndpoint.id)).some((d) => d.status === "succeeded")
    )
    expect((await deliveriesOf(movedEndpoint.id))[0]!.attempts).toMatchObject([
      { responseStatus: 302, error: expect.stringContaining("redirect") },
      { responseStatus: 204 }
    ])
    expect(at("/redirect-target")).toEqual([])
  })

  it("a receiver cannot set the retry pace: Retry-After 0 waits the backoff, and attempts stop at the maximum", async () => {
    // The second security review, item 6: 503 with `Retry-After: 0` got one POST per poll,
    // each stored, for the whole retry horizon.
    answers.set("/flood", () => ({ status: 503, headers: { "retry-after": "0" } }))
    const endpoint = await createEndpoint("/flood", ["charge.succeeded"])
    const ch = await charge()
    const { retry } = FAST
    // Watched at the receiver: polling the API for seconds would meet its rate limit.
    await eventually(
      "the last attempt",
      () => receivedFor("/flood", ch.id).length >= retry.maxAttempts
    )
    await eventually("the flooded delivery failed", async () =>
      (await deliveriesOf(endpoint.id)).some((d) => d.status === "failed")
    )
    const [delivery] = await deliveriesOf(endpoint.id)
    expect(delivery!.attempts).toHaveLength(retry.maxAttempts)
    const posts = receivedFor("/flood", ch.id)
    expect(posts).toHaveLength(retry.maxAttempts)
    posts.slice(1).forEach((post, i) => {
      // After failed attempt i + 1: the backoff, jitter at its shortest.
      const backoff = Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** i)
      expect(post.at - posts[i]!.at, `wait after attempt ${i + 1}`).toBeGreaterThanOrEqual(
        Math.floor(backoff * (1 - retry.jitter))
      )
    })
  })

  it("at delivery time a name now resolving to a private address is refused and recorded; the resolved address is the one connected to", async () => {
    const port = new URL(hooks.url).port
    const make = (id: string, host: string, path: string) =>
      server.store.runPromise(
        Effect.flatMap(WebhookEndpointRepository, (repo) =>
          repo.create({
            id,
            accountId: "acct_1",
            livemode: false,
            url: `http://${host}:${port}${path}`,
            enabledEvents: ["charge.succeeded"],
            status: "enabled",
            description: null,
            created: Math.floor(Date.now() / 1000),
            secret: "whsec_dev_ssrf"
          })
        )
      )
    await make("we_rebound", "rebound.invalid", "/rebound")
    await make("we_pinned", "pinned.invalid", "/pinned")
    const ch = await charge()
    // `pinned.invalid` has no DNS record: only the guard's answer can have routed this.
    await eventually("the pinned delivery", () => receivedFor("/pinned", ch.id).length > 0)
    expect(receivedFor("/pinned", ch.id)[0]!.headers.host).toBe(`pinned.invalid:${port}`)
    await eventually("two refused attempts recorded", async () =>
      (await deliveriesOf("we_rebound")).some((d) => d.attempts.length >= 2)
    )
    const [refused] = await deliveriesOf("we_rebound")
    expect(refused!.status).toBe("pending")
    expect(refused!.attempts[0]).toMatchObject({
      responseStatus: null,
      error: expect.stringContaining("private address")
    })
    expect(at("/rebound")).toEqual([])
  })

  it("a stored URL that cannot be sent to: every attempt recorded with why, retried on the schedule", async () => {
    // The second security review, item 8: `http://%zz@…` threw in the sender, so no attempt
    // was recorded and the delivery stayed pending, tried again whenever its lease lapsed.
    await server.store.runPromise(
      Effect.flatMap(WebhookEndpointRepository, (repo) =>
        repo.create({
          id: "we_undecodable",
          accountId: "acct_1",
          livemode: false,
          url: `http://%zz@${new URL(hooks.url).host}/undecodable`,
          enabledEvents: ["charge.succeeded"],
          status: "enabled",
          description: null,
          created: Math.floor(Date.now() / 1000),
          secret: "whsec_dev_undecodable"
        })
      )
    )
    await charge()
    await eventually("two recorded attempts", async () =>
      (await deliveriesOf("we_undecodable")).some((d) => d.attempts.length >= 2)
    )
    const [delivery] = await deliveriesOf("we_undecodable")
    expect(delivery!.status).toBe("pending")
    expect(delivery!.attempts[0]).toMatchObject({
      responseStatus: null,
      error: expect.stringContaining("percent-encoding")
    })
    expect(at("/undecodable")).toEqual([])
  })

  it("a receiver failing half the time and sometimes hanging past the timeout gets every event", async () => {
    const answered = new Set<string>()
    answers.set("/flaky", (r) => {
      const roll = coin()
      if (roll < 0.1) return "hang"
      if (roll < 0.5) return { status: 500 }
      answered.add(bodyOf(r).data.object.id)
      return { status: 200 }
    })
    const endpoint = await createEndpoint("/flaky", ["charge.succeeded"])
    const charges: Array<string> = []
    for (let i = 0; i < 20; i++) charges.push((await charge()).id)
    await eventually(
      "every event answered 200 at /flaky",
      () => charges.every((id) => answered.has(id)),
      40_000
    )
    const mine = at("/flaky").filter((r) => charges.includes(bodyOf(r).data.object.id))
    // Some attempts failed or hung, and were retried.
    expect(mine.length).toBeGreaterThan(charges.length)
    expect(mine.every((r) => signedWith(r, endpoint.secret))).toBe(true)
    await eventually("every delivery recorded succeeded", async () => {
      const deliveries = await deliveriesOf(endpoint.id)
      return deliveries.length === 20 && deliveries.every((d) => d.status === "succeeded")
    })
    const attempts = (await deliveriesOf(endpoint.id)).flatMap((d) => d.attempts)
    expect(attempts.some((a) => a.error?.includes("timed out"))).toBe(true)
    expect(attempts.some((a) => a.responseStatus === 500)).toBe(true)
  }, 60_000)
})
