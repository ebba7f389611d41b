/**
 * A local fake of the Stripe API endpoints Levy's Stripe adapter uses, following Stripe's
 * published API reference: form-encoded bodies with bracketed keys, `Authorization: Bearer`
 * secret keys (401 `invalid_request_error` otherwise), the `Idempotency-Key` header (the first
 * answer replayed with `Idempotent-Replayed: true`; a key reused with other parameters is a
 * 400 `idempotency_error`), card declines as 402 `card_error` with a `decline_code`, and
 * webhook events signed the way Stripe signs them (`Stripe-Signature: t=…,v1=…`, HMAC-SHA256
 * of `t.payload` with the endpoint's `whsec_` secret), and metadata within Stripe's published
 * limits (400 `invalid_request_error` naming `metadata` or `metadata[key]` otherwise).
 * Objects and events carry `livemode` from the key the payment was made with (`sk_live_…` /
 * `rk_live_…`: live), as one Stripe host serves both modes. `levy fake stripe` serves it
 * (cli/Fake.ts); Levy reaches it only through `LEVY_STRIPE_API_BASE_URL`.
 *
 * Endpoints: GET /v1/payment_methods/:id, GET /v1/confirmation_tokens/:id,
 * POST /v1/payment_intents (confirm=true), GET /v1/payment_intents/:id,
 * GET /v1/payment_intents (list), GET /v1/payment_intents/search, POST /v1/refunds,
 * GET /v1/refunds (list: `payment_intent` / `charge` filters, newest first, `limit` 1–100
 * default 10, `starting_after` / `ending_before` cursors, `has_more`).
 *
 * Test payment methods are Stripe's own test ids (`pm_card_visa`, `pm_card_visa_debit`,
 * `pm_card_mastercard_prepaid`, `pm_card_chargeDeclined`, `pm_card_createDispute`, …);
 * confirmation tokens are `ctoken_<name>` for the same cards (`ctoken_visa`).
 */
import { createHmac } from "node:crypto"
import {
  canonical,
  type FakeRequest,
  type FakeResponse,
  fakeId,
  header,
  idempotencyStore,
  listen,
  postNotification
} from "./FakeHttp.js"

/** A test card of the fake: what Stripe reports on the PaymentMethod, and what charging it does. */
interface TestCard {
  readonly brand: string
  readonly funding: "credit" | "debit" | "prepaid"
  readonly country: string
  readonly decline?: {
    readonly code: string
    readonly declineCode: string
    readonly message: string
  }
  readonly dispute?: boolean
}

const visa = { brand: "visa", funding: "credit", country: "US" } as const
const DECLINED = { code: "card_declined", message: "Your card was declined." }

const CARDS: Readonly<Record<string, TestCard>> = {
  visa,
  visa_debit: { ...visa, funding: "debit" },
  mastercard: { brand: "mastercard", funding: "credit", country: "US" },
  mastercard_debit: { brand: "mastercard", funding: "debit", country: "US" },
  mastercard_prepaid: { brand: "mastercard", funding: "prepaid", country: "US" },
  amex: { brand: "amex", funding: "credit", country: "US" },
  gb: { ...visa, country: "GB" },
  chargeDeclined: { ...visa, decline: { ...DECLINED, declineCode: "generic_decline" } },
  chargeDeclinedInsufficientFunds: {
    ...visa,
    decline: { ...DECLINED, declineCode: "insufficient_funds" }
  },
  createDispute: { ...visa, dispute: true }
}

/** The card behind a `pm_card_<name>` or `ctoken_<name>` id. */
const cardOf = (id: string): TestCard | undefined => {
  const name = id.startsWith("pm_card_")
    ? id.slice("pm_card_".length)
    : id.startsWith("ctoken_")
      ? id.slice("ctoken_".length)
      : undefined
  return name === undefined ? undefined : CARDS[name]
}

/** One payment the fake made (a confirmed PaymentIntent), as tests count them. */
export interface FakeStripePayment {
  readonly id: string
  /** The secret key it was made with: the Stripe account the money went to. */
  readonly secretKey: string
  readonly charge: string
  readonly idempotencyKey: string | undefined
  readonly amount: number
  readonly currency: string
  readonly status: "succeeded" | "requires_payment_method"
  readonly metadata: Readonly<Record<string, string>>
  amountRefunded: number
  readonly refunds: Array<FakeStripeRefund>
  disputed: boolean
  readonly lastError?: TestCard["decline"]
}

/** One refund the fake made, as Stripe's Refund object keeps it. */
export interface FakeStripeRefund {
  readonly id: string
  readonly amount: number
  readonly created: number
  readonly metadata: Readonly<Record<string, string>>
  /** Set when the refund failed after Stripe accepted it (`refund.failed`). */
  failureReason?: string
}

/** One request the fake received: its decoded parameters and idempotency key. */
export interface FakeStripeRequest {
  readonly method: string
  readonly path: string
  readonly params: Record<string, unknown>
  readonly idempotencyKey?: string
}

/** Decodes Stripe's form encoding (`a[b][0]=c`) into nested objects. */
export const decodeForm = (body: string): Record<string, unknown> => {
  const root: Record<string, unknown> = {}
  for (const pair of body.split("&")) {
    if (pair === "") continue
    const [rawKey = "", rawValue = ""] = pair.split("=")
    const key = decodeURIComponent(rawKey.replace(/\+/g, " "))
    const value = decodeURIComponent(rawValue.replace(/\+/g, " "))
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== "")
    let node = root
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value
      else {
        node[part] ??= {}
        node = node[part] as Record<string, unknown>
      }
    })
  }
  return root
}

const error = (status: number, body: Record<string, unknown>): FakeResponse => ({
  status,
  body: { error: body }
})

/**
 * Stripe's published metadata limits (docs.stripe.com/api/metadata): at most 50 keys, keys of
 * at most 40 characters without square brackets, string values of at most 500 characters.
 * A key with a bracket reaches the form decoder as a nested object, so it is refused as a
 * value that is not a string, as Stripe refuses it.
 */
const metadataRefusal = (metadata: unknown): FakeResponse | undefined => {
  if (metadata === undefined) return undefined
  const refuse = (param: string, message: string) =>
    error(400, { type: "invalid_request_error", code: "parameter_invalid", param, message })
  if (typeof metadata !== "object" || metadata === null) {
    return refuse("metadata", "Invalid metadata: send a hash of keys and values.")
  }
  const entries = Object.entries(metadata)
  if (entries.length > 50) return refuse("metadata", "Invalid metadata: 50 keys at most.")
  for (const [key, value] of entries) {
    if (typeof value !== "string") {
      return refuse(
        `metadata[${key}]`,
        "Invalid metadata: values must be strings, and keys cannot contain square brackets."
      )
    }
    if (key.length > 40)
      return refuse(`metadata[${key}]`, "Invalid metadata: keys of 40 characters at most.")
    if (value.length > 500) {
      return refuse(`metadata[${key}]`, "Invalid metadata: values of 500 characters at most.")
    }
  }
  return undefined
}

const missing = (kind: string, id: string, param: string) =>
  error(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    param,
    message: `No such ${kind}: '${id}'`
  })

/** Whether a secret key is a live-mode one (`sk_live_…`, `rk_live_…`), as Stripe's prefixes say. */
export const isLiveKey = (key: string): boolean => /^(sk|rk)_live_/.test(key)

const cardObject = (card: TestCard) => ({
  brand: card.brand,
  country: card.country,
  funding: card.funding,
  exp_month: 12,
  exp_year: 2034,
  last4: "4242",
  networks: { available: [card.brand], preferred: null },
  display_brand: card.brand
})

/** Options of a fake Stripe. */
export interface FakeStripeOptions {
  /** The secret key the fake accepts (default `sk_test_levy_fake`). */
  readonly secretKey?: string
  /**
   * Keys of other Stripe accounts the fake accepts too: each payment records the key it was
   * made with, so a test can tell whose account the money went to.
   */
  readonly otherSecretKeys?: ReadonlyArray<string>
  /**
   * Restricted keys (`rk_…`) with read access only: a GET is answered, any other request is
   * Stripe's 403 for a key without the permission (its API reference, "Restricted API keys").
   */
  readonly readOnlySecretKeys?: ReadonlyArray<string>
  /** Where to deliver events, signed with `secret`. */
  readonly webhook?: { readonly url: string; readonly secret: string }
  readonly port?: number
}

/** A signed event, as Stripe would POST it. */
export interface SignedEvent {
  readonly rawBody: string
  readonly headers: Readonly<Record<string, string>>
}

/** Signs `payload` the way Stripe signs webhook events. */
export const stripeSignature = (payload: string, secret: string, timestamp: number): string =>
  `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex")}`

export const startFakeStripe = async (options: FakeStripeOptions = {}) => {
  const secretKey = options.secretKey ?? "sk_test_levy_fake"
  let webhook = options.webhook
  const payments: Array<FakeStripePayment> = []
  /** Every refund in the order it was made (lists are newest first). */
  const refundsMade: Array<{ payment: FakeStripePayment; refund: FakeStripeRefund }> = []
  const requests: Array<FakeStripeRequest> = []
  const idempotency = idempotencyStore()
  const delivered: Array<Promise<unknown>> = []

  const paymentIntent = (p: FakeStripePayment) => ({
    id: p.id,
    object: "payment_intent",
    amount: p.amount,
    amount_received: p.status === "succeeded" ? p.amount : 0,
    currency: p.currency,
    status: p.status,
    latest_charge: p.charge,
    metadata: p.metadata,
    last_payment_error:
      p.lastError === undefined
        ? null
        : {
            type: "card_error",
            code: p.lastError.code,
            decline_code: p.lastError.declineCode,
            message: p.lastError.message
          },
    livemode: isLiveKey(p.secretKey),
    created: Math.floor(Date.now() / 1000)
  })

  const chargeObject = (p: FakeStripePayment) => ({
    id: p.charge,
    object: "charge",
    amount: p.amount,
    amount_refunded: p.amountRefunded,
    currency: p.currency,
    payment_intent: p.id,
    refunded: p.amountRefunded === p.amount,
    disputed: p.disputed,
    metadata: p.metadata,
    livemode: isLiveKey(p.secretKey)
  })

  /** Whether `object` (a PaymentIntent, or an object naming one) belongs to live mode. */
  const liveObject = (object: unknown): boolean => {
    const o = object as { livemode?: unknown; payment_intent?: unknown } | null
    if (typeof o?.livemode === "boolean") return o.livemode
    const payment =
      typeof o?.payment_intent === "string" ? findPayment(o.payment_intent) : undefined
    return payment !== undefined && isLiveKey(payment.secretKey)
  }

  /** An event about `object`, in the mode of the key its payment was made with. */
  const event = (type: string, object: unknown, previous?: unknown) => ({
    id: fakeId("evt_"),
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: liveObject(object),
    type,
    data: previous === undefined ? { object } : { object, previous_attributes: previous }
  })

  const sign = (body: unknown, secret: string): SignedEvent => {
    const rawBody = JSON.stringify(body, null, 2)
    return {
      rawBody,
      headers: {
        "stripe-signature": stripeSignature(rawBody, secret, Math.floor(Date.now() / 1000))
      }
    }
  }

  /** Delivers an event to the configured webhook endpoint, if any. */
  const emit = (type: string, object: unknown) => {
    const e = event(type, object)
    if (webhook !== undefined) {
      const signed = sign(e, webhook.secret)
      delivered.push(postNotification(webhook.url, signed.rawBody, signed.headers).catch(() => {}))
    }
    return e
  }

  const findPayment = (id: string) => payments.find((p) => p.id === id || p.charge === id)

  const createPaymentIntent = (
    params: Record<string, unknown>,
    key: string | undefined,
    account: string
  ) => {
    const amount = Number(params.amount)
    const currency = String(params.currency ?? "")
    if (!Number.isInteger(amount) || amount < 1) {
      return error(400, {
        type: "invalid_request_error",
        code: "parameter_invalid_integer",
        param: "amount",
        message: "Invalid positive integer"
      })
    }
    const refused = metadataRefusal(params.metadata)
    if (refused !== undefined) return refused
    const source = String(params.payment_method ?? params.confirmation_token ?? "")
    const card = cardOf(source)
    if (card === undefined) {
      return source.startsWith("ctoken_")
        ? missing("confirmationtoken", source, "confirmation_token")
        : missing("PaymentMethod", source, "payment_method")
    }
    const payment: FakeStripePayment = {
      id: fakeId("pi_"),
      secretKey: account,
      charge: fakeId("ch_"),
      idempotencyKey: key,
      amount,
      currency,
      status: card.decline === undefined ? "succeeded" : "requires_payment_method",
      metadata: (params.metadata ?? {}) as Record<string, string>,
      amountRefunded: 0,
      refunds: [],
      disputed: false,
      ...(card.decline === undefined ? {} : { lastError: card.decline })
    }
    payments.push(payment)
    if (card.decline !== undefined) {
      emit("payment_intent.payment_failed", paymentIntent(payment))
      return error(402, {
        type: "card_error",
        code: card.decline.code,
        decline_code: card.decline.declineCode,
        message: card.decline.message,
        charge: payment.charge,
        payment_intent: paymentIntent(payment)
      })
    }
    emit("payment_intent.succeeded", paymentIntent(payment))
    if (card.dispute === true) dispute(payment.id)
    return { status: 200, body: paymentIntent(payment) }
  }

  const createRefund = (params: Record<string, unknown>) => {
    const refused = metadataRefusal(params.metadata)
    if (refused !== undefined) return refused
    const target = String(params.payment_intent ?? params.charge ?? "")
    const payment = findPayment(target)
    if (payment === undefined || payment.status !== "succeeded") {
      return missing("payment_intent", target, "payment_intent")
    }
    const remaining = payment.amount - payment.amountRefunded
    const amount = params.amount === undefined ? remaining : Number(params.amount)
    if (payment.disputed) {
      return error(400, {
        type: "invalid_request_error",
        code: "charge_disputed",
        message: `Charge ${payment.charge} has been charged back; cannot issue a refund.`
      })
    }
    if (remaining === 0) {
      return error(400, {
        type: "invalid_request_error",
        code: "charge_already_refunded",
        message: `Charge ${payment.charge} has already been refunded.`
      })
    }
    if (!Number.isInteger(amount) || amount < 1 || amount > remaining) {
      return error(400, {
        type: "invalid_request_error",
        code: "amount_too_large",
        param: "amount",
        message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`
      })
    }
    const created = refundEvents(payment, amount, params.metadata ?? {})
    return { status: 200, body: created.data.object }
  }

  /** A refund as Stripe's Refund object. */
  const refundObject = (payment: FakeStripePayment, refund: FakeStripeRefund) => ({
    id: refund.id,
    object: "refund",
    amount: refund.amount,
    currency: payment.currency,
    charge: payment.charge,
    payment_intent: payment.id,
    created: refund.created,
    reason: null,
    status: refund.failureReason === undefined ? "succeeded" : "failed",
    ...(refund.failureReason === undefined ? {} : { failure_reason: refund.failureReason }),
    metadata: refund.metadata
  })

  /** Books a refund and emits what Stripe emits for it: `refund.created`, `charge.refunded`. */
  const refundEvents = (payment: FakeStripePayment, amount: number, metadata: unknown) => {
    const refund: FakeStripeRefund = {
      id: fakeId("re_"),
      amount,
      created: Math.floor(Date.now() / 1000),
      metadata: (metadata ?? {}) as Record<string, string>
    }
    payment.refunds.push(refund)
    refundsMade.push({ payment, refund })
    payment.amountRefunded += amount
    const created = emit("refund.created", refundObject(payment, refund))
    emit("charge.refunded", chargeObject(payment))
    return created
  }

  /**
   * List refunds (`GET /v1/refunds`), as Stripe's API reference describes it: the refunds of one
   * PaymentIntent or charge (all of them without a filter), newest first, `limit` 1 to 100
   * (default 10), paged with `starting_after` / `ending_before`, `has_more` when more follow.
   */
  const listRefunds = (query: URLSearchParams): FakeResponse => {
    const limit = Number(query.get("limit") ?? "10")
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      return error(400, {
        type: "invalid_request_error",
        code: "parameter_invalid_integer",
        param: "limit",
        message: "This value must be between 1 and 100."
      })
    }
    const paymentIntent = query.get("payment_intent")
    const charge = query.get("charge")
    const target = paymentIntent ?? charge
    if (target !== null && findPayment(target) === undefined) {
      return paymentIntent !== null
        ? missing("payment_intent", paymentIntent, "payment_intent")
        : missing("charge", target, "charge")
    }
    const all = refundsMade
      .filter(
        ({ payment }) => target === null || payment.id === target || payment.charge === target
      )
      .reverse()
      .map(({ payment, refund }) => refundObject(payment, refund))
    const after = query.get("starting_after")
    const before = query.get("ending_before")
    const cursor = after ?? before
    const at = cursor === null ? -1 : all.findIndex((r) => r.id === cursor)
    if (cursor !== null && at === -1) {
      return missing("refund", cursor, after !== null ? "starting_after" : "ending_before")
    }
    const window =
      before !== null ? all.slice(Math.max(0, at - limit), at) : all.slice(at + 1, at + 1 + limit)
    const hasMore = before !== null ? at - limit > 0 : at + 1 + limit < all.length
    return {
      status: 200,
      body: { object: "list", url: "/v1/refunds", has_more: hasMore, data: window }
    }
  }

  const search = (query: string) => {
    const match = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(query.trim())
    if (match === null) {
      return error(400, {
        type: "invalid_request_error",
        code: "parameter_invalid",
        param: "query",
        message: "The fake supports only metadata['key']:'value' queries."
      })
    }
    const [, key = "", value] = match
    const data = payments.filter((p) => p.metadata[key] === value).map(paymentIntent)
    return {
      status: 200,
      body: { object: "search_result", url: "/v1/payment_intents/search", has_more: false, data }
    }
  }

  const readOnly = options.readOnlySecretKeys ?? []
  const keys = [secretKey, ...(options.otherSecretKeys ?? []), ...readOnly]
  /** The accepted key the request carries, if any. */
  const keyOf = (request: FakeRequest) => {
    const given = header(request, "authorization") ?? ""
    return keys.find(
      (k) => given === `Bearer ${k}` || given === `Basic ${Buffer.from(`${k}:`).toString("base64")}`
    )
  }
  const authorized = (request: FakeRequest) => keyOf(request) !== undefined

  const route = (request: FakeRequest): FakeResponse => {
    const { method, path } = request
    const params = method === "POST" ? decodeForm(request.body) : {}
    const key = header(request, "idempotency-key")
    requests.push({ method, path, params, ...(key === undefined ? {} : { idempotencyKey: key }) })
    if (path.startsWith("/_fake/")) return control(request)
    if (!authorized(request)) {
      const given = (header(request, "authorization") ?? "").replace(/^Bearer /, "")
      return error(401, {
        type: "invalid_request_error",
        message: `Invalid API Key provided: ${given.slice(0, 8)}${"*".repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`
      })
    }
    const account = keyOf(request) ?? secretKey
    if (method !== "GET" && readOnly.includes(account)) {
      return error(403, {
        type: "invalid_request_error",
        message: `The provided key '${account.slice(0, 8)}***${account.slice(-4)}' does not have the required permissions for this endpoint on account 'acct_levy_fake'. Having the 'rak_${path.includes("refunds") ? "refund" : "payment_intent"}_write' permission would allow this request to continue.`
      })
    }
    /** The id in `GET <prefix><id>`, if this request is one. */
    const idIn = (prefix: string): string | undefined => {
      const rest = path.slice(prefix.length)
      return method === "GET" && path.startsWith(prefix) && rest !== "" && !rest.includes("/")
        ? decodeURIComponent(rest)
        : undefined
    }
    const methodId = idIn("/v1/payment_methods/")
    if (methodId !== undefined) {
      const id = methodId
      const card = id.startsWith("pm_") ? cardOf(id) : undefined
      return card === undefined
        ? missing("PaymentMethod", id, "payment_method")
        : {
            status: 200,
            body: { id, object: "payment_method", type: "card", card: cardObject(card) }
          }
    }
    const tokenId = idIn("/v1/confirmation_tokens/")
    if (tokenId !== undefined) {
      const id = tokenId
      const card = id.startsWith("ctoken_") ? cardOf(id) : undefined
      return card === undefined
        ? missing("confirmationtoken", id, "confirmation_token")
        : {
            status: 200,
            body: {
              id,
              object: "confirmation_token",
              payment_method_preview: { type: "card", card: cardObject(card) }
            }
          }
    }
    if (method === "GET" && path === "/v1/payment_intents/search") {
      return search(request.query.get("query") ?? "")
    }
    if (method === "GET" && path === "/v1/refunds") return listRefunds(request.query)
    if (method === "GET" && path === "/v1/payment_intents") {
      const limit = Number(request.query.get("limit") ?? "10")
      const data = payments.slice(-limit).reverse().map(paymentIntent)
      return { status: 200, body: { object: "list", url: path, has_more: false, data } }
    }
    const intentId = idIn("/v1/payment_intents/")
    if (intentId !== undefined) {
      const payment = findPayment(intentId)
      return payment === undefined
        ? missing("payment_intent", intentId, "intent")
        : { status: 200, body: paymentIntent(payment) }
    }
    if (method === "POST" && (path === "/v1/payment_intents" || path === "/v1/refunds")) {
      const execute = () =>
        path === "/v1/refunds" ? createRefund(params) : createPaymentIntent(params, key, account)
      return idempotency.run(
        key,
        `${method} ${path} ${canonical(params)}`,
        execute,
        (first) => ({ ...first, headers: { "idempotent-replayed": "true" } }),
        (k) =>
          error(400, {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${k}' if you meant to execute a different request.`
          })
      )
    }
    return error(404, {
      type: "invalid_request_error",
      message: `Unrecognized request URL (${method}: ${path}).`
    })
  }

  /**
   * The fake's own control endpoints (not Stripe's), for a test driving the fake in another
   * process: GET /_fake/payments, POST /_fake/webhook {url, secret}, POST /_fake/dispute
   * {payment_intent}, POST /_fake/refund {payment_intent, amount}.
   */
  const control = (request: FakeRequest): FakeResponse => {
    const body = request.body === "" ? {} : (JSON.parse(request.body) as Record<string, unknown>)
    switch (`${request.method} ${request.path}`) {
      case "GET /_fake/payments":
        return { status: 200, body: payments }
      case "POST /_fake/webhook":
        webhook =
          typeof body.url === "string" ? { url: body.url, secret: String(body.secret) } : undefined
        return { status: 200, body: { ok: true } }
      case "POST /_fake/dispute":
        return { status: 200, body: dispute(String(body.payment_intent)) }
      case "POST /_fake/refund": {
        const payment = findPayment(String(body.payment_intent))
        if (payment === undefined) return missing("payment_intent", "", "payment_intent")
        return { status: 200, body: refundEvents(payment, Number(body.amount), {}) }
      }
      default:
        return error(404, { type: "invalid_request_error", message: "No such control endpoint." })
    }
  }

  /** Opens a dispute on a payment, as the cardholder's bank would; emits `charge.dispute.created`. */
  const dispute = (paymentIntentId: string, reason = "fraudulent") => {
    const payment = findPayment(paymentIntentId)
    if (payment === undefined) throw new Error(`no payment ${paymentIntentId}`)
    payment.disputed = true
    const object = {
      id: fakeId("dp_"),
      object: "dispute",
      amount: payment.amount,
      currency: payment.currency,
      charge: payment.charge,
      payment_intent: payment.id,
      reason,
      status: "needs_response",
      created: Math.floor(Date.now() / 1000)
    }
    return emit("charge.dispute.created", object)
  }

  const listening = await listen(route, options.port)
  return {
    url: listening.url,
    secretKey,
    /** Every PaymentIntent the fake confirmed, declined ones included (`status`). */
    payments: (): ReadonlyArray<FakeStripePayment> => payments,
    /** Every request the fake received, in order. */
    requests: () => requests,
    dispute,
    /** Closes a dispute with its final status (`won` / `lost`); emits `charge.dispute.closed`. */
    closeDispute: (disputeEvent: ReturnType<typeof dispute>, status: "won" | "lost") => {
      const object: Record<string, unknown> = {
        ...(disputeEvent.data.object as Record<string, unknown>),
        status
      }
      const payment = findPayment(String(object.payment_intent))
      if (payment !== undefined && status === "won") payment.disputed = false
      return emit("charge.dispute.closed", object)
    },
    /** A refund made in the Stripe Dashboard: emits `charge.refunded`. */
    refundInDashboard: (paymentIntentId: string, amount: number) => {
      const payment = findPayment(paymentIntentId)
      if (payment === undefined) throw new Error(`no payment ${paymentIntentId}`)
      return refundEvents(payment, amount, {})
    },
    /**
     * A refund Stripe had accepted fails (the card was closed, say): its status becomes
     * `failed` with `failure_reason`, the money is the merchant's again, and Stripe emits
     * `refund.failed` (Refunds API reference).
     */
    failRefund: (refundId: string, failureReason = "expired_or_canceled_card") => {
      const made = refundsMade.find(({ refund }) => refund.id === refundId)
      if (made === undefined) throw new Error(`no refund ${refundId}`)
      made.refund.failureReason = failureReason
      made.payment.amountRefunded -= made.refund.amount
      return emit("refund.failed", refundObject(made.payment, made.refund))
    },
    /** An event of `type` about `object`, signed with `secret` as Stripe would send it. */
    signedEvent: (type: string, object: unknown, secret: string): SignedEvent =>
      sign(event(type, object), secret),
    /** POSTs a signed event to `url` (Levy's webhook URL). */
    sendWebhook: (url: string, type: string, object: unknown, secret: string) => {
      const signed = sign(event(type, object), secret)
      return postNotification(url, signed.rawBody, signed.headers)
    },
    /** Where events go from now on. */
    setWebhook: (target: { readonly url: string; readonly secret: string } | undefined) => {
      webhook = target
    },
    /** Forgets every idempotency key, as Stripe may once a key is 24 hours old. */
    forgetIdempotencyKeys: () => idempotency.forget(),
    /** Waits for every event delivery started so far. */
    settled: () => Promise.all(delivered),
    paymentIntent,
    close: listening.close
  }
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>
