/**
 * Form-encoded bodies, as Stripe's API takes them: `curl -d amount=1000 -d
 * currency=usd` was a 400 `content_type_invalid`. Every POST that takes a JSON body takes
 * `application/x-www-form-urlencoded` too, bracket notation for objects and lists, each value
 * turned into the type the endpoint's schema takes there and then validated as JSON is; a
 * hostile form is a 400, never a hang or a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { call, type Running, SECRET, start } from "./support.js"

let server: Running

beforeAll(async () => {
  server = await start()
})
afterAll(async () => {
  await server.close()
})

const FORM = "application/x-www-form-urlencoded"

/** POST `form` (already encoded) as curl -d sends it. */
const postForm = (
  path: string,
  form: string,
  init: { readonly key?: string; readonly headers?: Record<string, string> } = {}
) =>
  call(server.url, "POST", path, {
    raw: form,
    key: init.key ?? SECRET,
    headers: { "content-type": FORM, ...init.headers }
  })

const errorOf = (body: unknown) =>
  (body as { error: { code: string; message: string; param?: string } }).error
const bodyOf = (body: unknown) => body as Record<string, unknown>

describe("form bodies are taken", () => {
  it("curl -d amount=1000 -d currency=usd charges, numbers as numbers", async () => {
    const reply = await postForm("/v1/charges", "amount=1000&currency=usd")
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ object: "charge", amount: 1000, currency: "usd" })
  })

  it('metadata[order]=42 is metadata {order: "42"}: a metadata value stays a string', async () => {
    const reply = await postForm(
      "/v1/charges",
      "amount=2000&currency=usd&metadata[order]=42&metadata%5Bgift%5D=yes&description=Order+%2342"
    )
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      amount: 2000,
      description: "Order #42",
      metadata: { order: "42", gift: "yes" }
    })
  })

  it("the charset parameter and booleans: disclosed=false is false", async () => {
    const reply = await postForm(
      "/v1/estimates",
      "amount=10000&currency=usd&region=US-CO&cardType=credit&disclosed=false",
      { headers: { "content-type": `${FORM}; charset=utf-8` } }
    )
    expect(reply.status).toBe(200)
    const json = await call(server.url, "POST", "/v1/estimates", {
      body: {
        amount: 10000,
        currency: "usd",
        region: "US-CO",
        cardType: "credit",
        disclosed: false
      }
    })
    const { id: _a, expiresAt: _b, ...fromForm } = bodyOf(reply.body)
    const { id: _c, expiresAt: _d, ...fromJson } = bodyOf(json.body)
    expect(fromForm).toStrictEqual(fromJson)
  })

  it("nested objects and lists: currencyFees[jpy][flatFee]=40, enabledEvents[]= and [0]=", async () => {
    const fees = await postForm("/v1/fee-configs", "currencyFees[jpy][flatFee]=40")
    expect(fees.status).toBe(200)
    expect(fees.body).toMatchObject({ currencyFees: { jpy: { flatFee: 40 } } })
    for (const events of [
      "enabledEvents[]=charge.succeeded&enabledEvents[]=charge.failed",
      "enabledEvents[0]=charge.succeeded&enabledEvents[1]=charge.failed"
    ]) {
      const endpoint = await postForm(
        "/v1/webhook-endpoints",
        `url=${encodeURIComponent("http://127.0.0.1:9/hook")}&${events}`
      )
      expect(endpoint.status, events).toBe(200)
      expect(bodyOf(endpoint.body).enabledEvents).toStrictEqual([
        "charge.succeeded",
        "charge.failed"
      ])
    }
  })

  it("an empty value of a nullable field is null: defaultRegion= clears it", async () => {
    const set = await postForm("/v1/fee-configs", "percentage=1.5&flatFee=0&defaultRegion=US-WA")
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ percentage: 1.5, flatFee: 0, defaultRegion: "US-WA" })
    const cleared = await postForm("/v1/fee-configs", "defaultRegion=&percentage=2.9&flatFee=0.30")
    expect(cleared.status).toBe(200)
    expect(cleared.body).toMatchObject({ defaultRegion: null, percentage: 2.9, flatFee: 0.3 })
  })

  it("a refund with refundFee=true and an amount", async () => {
    const charge = await postForm("/v1/charges", "amount=5000&currency=usd")
    const id = bodyOf(charge.body).id as string
    const refund = await postForm("/v1/refunds", `charge=${id}&amount=1000&refundFee=true`)
    expect(refund.status).toBe(200)
    expect(refund.body).toMatchObject({ charge: id, amount: 1000 })
  })
})

describe("form values the schema refuses, naming the param", () => {
  it("amount=10.5 where an integer is required", async () => {
    const reply = await postForm("/v1/charges", "amount=10.5&currency=usd")
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({ code: "parameter_invalid", param: "amount" })
  })

  it("amount=abc, a boolean that is not one, an unknown parameter, a missing one", async () => {
    const abc = await postForm("/v1/charges", "amount=abc&currency=usd")
    expect(errorOf(abc.body)).toMatchObject({ code: "parameter_invalid", param: "amount" })
    const yes = await postForm("/v1/estimates", "amount=1000&currency=usd&disclosed=yes")
    expect(errorOf(yes.body)).toMatchObject({ code: "parameter_invalid", param: "disclosed" })
    const colour = await postForm("/v1/charges", "amount=1000&currency=usd&colour=red")
    expect(errorOf(colour.body)).toMatchObject({ code: "parameter_unknown", param: "colour" })
    const missing = await postForm("/v1/charges", "currency=usd")
    expect(errorOf(missing.body)).toMatchObject({ code: "parameter_missing", param: "amount" })
    const nested = await postForm("/v1/charges", "amount=1000&currency=usd&metadata[a][b]=c")
    expect(errorOf(nested.body)).toMatchObject({ param: "metadata[a]" })
  })

  it("a NUL (%00) in a value is a 400 naming it", async () => {
    const reply = await postForm("/v1/charges", "amount=1000&currency=usd&description=a%00b")
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({ param: "description" })
  })

  it("another content type is still refused, naming both accepted", async () => {
    const reply = await call(server.url, "POST", "/v1/charges", {
      raw: "amount=1000",
      headers: { "content-type": "text/plain" }
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body).code).toBe("content_type_invalid")
    expect(errorOf(reply.body).message).toContain(FORM)
  })
})

describe("hostile form bodies: a 400, not a hang or a 500", () => {
  it("10,000 keys", async () => {
    const form = Array.from({ length: 10_000 }, (_, i) => `k${i}=v`).join("&")
    const reply = await postForm("/v1/charges", form)
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({ code: "body_invalid" })
    expect(errorOf(reply.body).message).toContain("1000 parameters")
  })

  it("brackets nested 10,000 deep", async () => {
    const reply = await postForm("/v1/charges", `metadata${"[a]".repeat(10_000)}=x`)
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({ code: "body_invalid" })
  })

  it("a list index of a million, and a list of 10,000 items", async () => {
    const index = await postForm(
      "/v1/webhook-endpoints",
      "url=http://x.test&enabledEvents[999999]=*"
    )
    expect(index.status).toBe(400)
    const items = Array.from({ length: 10_000 }, () => "enabledEvents[]=*").join("&")
    const long = await postForm("/v1/webhook-endpoints", `url=http://x.test&${items}`)
    expect(long.status).toBe(400)
  })

  it("__proto__ and constructor keys are dropped by the parser: nothing polluted", async () => {
    const reply = await postForm(
      "/v1/charges",
      "amount=1000&currency=usd&__proto__[admin]=1&constructor[prototype][polluted]=1"
    )
    expect(reply.status).toBe(200)
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe("idempotency with form bodies", () => {
  it("the same parameters under the same key replay, as a form, as JSON in another order or spacing; other parameters are another request", async () => {
    const key = "form-key-1"
    const form = "amount=3000&currency=usd&metadata[order]=7"
    const first = await postForm("/v1/charges", form, { headers: { "idempotency-key": key } })
    expect(first.status).toBe(200)
    const again = await postForm("/v1/charges", form, { headers: { "idempotency-key": key } })
    expect(again.status).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toStrictEqual(first.body)
    // Stripe compares parameters, not bytes: the same ones as JSON, reordered and spaced.
    const asJson = await fetch(`${server.url}/v1/charges`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${SECRET}`,
        "content-type": "application/json",
        "idempotency-key": key
      },
      body: '{ "metadata": {"order": "7"},\n  "currency": "usd", "amount": 3000 }'
    })
    expect(asJson.status).toBe(200)
    expect(asJson.headers.get("idempotent-replayed")).toBe("true")
    expect(await asJson.json()).toStrictEqual(first.body)
    const other = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 3001, currency: "usd", metadata: { order: "7" } },
      headers: { "idempotency-key": key }
    })
    expect(other.status).toBe(400)
    expect(errorOf(other.body).code).toBe("idempotency_key_reused")
  })

  it("a refused form body does not take the key: the corrected one runs", async () => {
    const key = "form-key-2"
    const bad = await postForm("/v1/charges", "amount=10.5&currency=usd", {
      headers: { "idempotency-key": key }
    })
    expect(bad.status).toBe(400)
    const good = await postForm("/v1/charges", "amount=1050&currency=usd", {
      headers: { "idempotency-key": key }
    })
    expect(good.status).toBe(200)
  })
})
