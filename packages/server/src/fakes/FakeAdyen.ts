/**
 * A local fake of the Adyen Checkout API (v72) endpoints Levy's Adyen adapter uses, following
 * Adyen's published API reference: JSON bodies, the `X-API-Key` header (401 with Adyen's error
 * body `{status, errorCode, message, errorType}` otherwise; 403 errorCode 901 for a merchant
 * account the key may not use), the `Idempotency-Key` header (Adyen documents that a request
 * already processed under a key gets the first response back, not a second payment; the
 * fake replays it and echoes the key), and standard webhooks (notificationItems signed with
 * the HMAC Adyen documents: the fields pspReference, originalReference, merchantAccountCode,
 * merchantReference, amount value and currency, eventCode, success joined by `:`, HMAC-SHA256
 * with the hex key, base64, in `additionalData.hmacSignature`). `levy fake adyen` serves it
 * as Adyen's live environment (cli/Fake.ts); Levy reaches it only through
 * `LEVY_ADYEN_API_BASE_URL`.
 *
 * Endpoints: POST /v72/paymentMethods, POST /v72/cardDetails, POST /v72/payments,
 * POST /v72/payments/{pspReference}/refunds.
 *
 * Cards: Adyen's test environment takes unencrypted values prefixed `test_` in the
 * `encrypted…` fields (`test_4111111111111111`); the fake knows the numbers below. The
 * `holderName` picks the outcome as in Adyen's test result codes: `DECLINED`, `BLOCK_CARD`,
 * `CARD_EXPIRED` and `NOT_ENOUGH_BALANCE` are refused, `PENDING` is `Received`; `CHARGEBACK` (the fake's own) authorises and then sends
 * a NOTIFICATION_OF_CHARGEBACK.
 */
import { createHmac } from "node:crypto"
import {
  type FakeRequest,
  type FakeResponse,
  header,
  idempotencyStore,
  listen,
  postNotification
} from "./FakeHttp.js"

interface TestCard {
  readonly brand: string
  readonly fundingSource: "CREDIT" | "DEBIT" | "PREPAID"
  readonly commercial: boolean
  readonly country: string
}

/** The fake's card table, keyed by card number. */
export const ADYEN_TEST_CARDS: Readonly<Record<string, TestCard>> = {
  "4111111111111111": { brand: "visa", fundingSource: "CREDIT", commercial: false, country: "US" },
  "4400000000000008": { brand: "visa", fundingSource: "DEBIT", commercial: false, country: "US" },
  "5555555555554444": { brand: "mc", fundingSource: "CREDIT", commercial: false, country: "US" },
  "5101180000000007": { brand: "mc", fundingSource: "PREPAID", commercial: false, country: "US" },
  "4166676667666746": { brand: "visa", fundingSource: "CREDIT", commercial: true, country: "US" },
  "4988438843884305": { brand: "visa", fundingSource: "CREDIT", commercial: false, country: "ES" }
}

/** Adyen's "testing result codes" table: holderName → refusal reason and code. */
const REFUSALS: Readonly<Record<string, { readonly reason: string; readonly code: string }>> = {
  DECLINED: { reason: "Refused", code: "2" },
  BLOCK_CARD: { reason: "Blocked Card", code: "5" },
  CARD_EXPIRED: { reason: "Expired Card", code: "6" },
  NOT_ENOUGH_BALANCE: { reason: "Not enough balance", code: "12" }
}

/** One request the fake received: its JSON body and idempotency key. */
export interface FakeAdyenRequest {
  readonly method: string
  readonly path: string
  readonly body: Record<string, unknown>
  readonly idempotencyKey?: string
}

/** One payment the fake made, as tests count them. */
export interface FakeAdyenPayment {
  readonly pspReference: string
  readonly idempotencyKey: string | undefined
  readonly merchantReference: string
  readonly amount: { readonly value: number; readonly currency: string }
  readonly resultCode: "Authorised" | "Refused" | "Received"
  readonly metadata: Readonly<Record<string, string>>
  readonly refunds: Array<{ readonly pspReference: string; readonly value: number }>
  refunded: number
  disputed: boolean
}

/** One notification item, before signing. */
export interface NotificationItem {
  readonly eventCode: string
  readonly pspReference: string
  readonly originalReference?: string
  readonly merchantReference: string
  readonly amount: { readonly value: number; readonly currency: string }
  readonly success: "true" | "false"
  readonly reason?: string
  readonly additionalData?: Readonly<Record<string, string>>
}

/** Signs one notification item the way Adyen documents it for standard webhooks. */
export const adyenHmac = (
  item: NotificationItem & { readonly merchantAccountCode: string },
  hexKey: string
): string => {
  const data = [
    item.pspReference,
    item.originalReference ?? "",
    item.merchantAccountCode,
    item.merchantReference,
    String(item.amount.value),
    item.amount.currency,
    item.eventCode,
    item.success
  ].join(":")
  return createHmac("sha256", Buffer.from(hexKey, "hex")).update(data, "utf8").digest("base64")
}

const adyenError = (
  status: number,
  errorCode: string,
  message: string,
  errorType: string
): FakeResponse => ({ status, body: { status, errorCode, message, errorType } })

/**
 * Adyen's published `metadata` limits for /payments: at most 20 pairs (error 177 "Metadata
 * size exceeds limit"), keys of at most 20 characters (error 178 "Metadata key size exceeds
 * limit"). The 80-character limit on values has no documented error code, so the fake does
 * not enforce it.
 */
const metadataRefusal = (metadata: unknown): FakeResponse | undefined => {
  if (metadata === undefined || metadata === null || typeof metadata !== "object") return undefined
  const keys = Object.keys(metadata)
  if (keys.length > 20) return adyenError(422, "177", "Metadata size exceeds limit", "validation")
  if (keys.some((key) => key.length > 20)) {
    return adyenError(422, "178", "Metadata key size exceeds limit", "validation")
  }
  return undefined
}

/** The card number in a `test_`-prefixed "encrypted" field. */
const cardNumber = (encrypted: unknown): string | undefined =>
  typeof encrypted === "string" && encrypted.startsWith("test_")
    ? encrypted.slice("test_".length)
    : undefined

/** Options of a fake Adyen. */
export interface FakeAdyenOptions {
  readonly apiKey?: string
  readonly merchantAccount?: string
  /** Where to deliver notifications, signed with the hex `hmacKey`. */
  readonly webhook?: { readonly url: string; readonly hmacKey: string }
  readonly port?: number
  /**
   * Play Adyen's live environment: notifications say `"live": "true"` (Levy refuses a test
   * notification at a live-mode URL, and the reverse). Adyen's keys do not tell the two
   * apart, its hosts do; a fake is one host, so one environment.
   */
  readonly live?: boolean
}

let counter = 0
/** A 16-character pspReference, like Adyen's. */
const pspReference = () =>
  `${Date.now().toString().slice(-9)}${String(++counter).padStart(7, "0")}`.slice(-16)

export const startFakeAdyen = async (options: FakeAdyenOptions = {}) => {
  const apiKey = options.apiKey ?? "AQE_levy_fake_key"
  const merchantAccount = options.merchantAccount ?? "LevyECOM"
  let webhook = options.webhook
  const payments: Array<FakeAdyenPayment> = []
  const requests: Array<FakeAdyenRequest> = []
  const idempotency = idempotencyStore()
  const delivered: Array<Promise<unknown>> = []

  const notification = (items: ReadonlyArray<NotificationItem>, hmacKey: string) => {
    const body = {
      live: String(options.live === true),
      notificationItems: items.map((item) => {
        const full = { ...item, merchantAccountCode: merchantAccount }
        return {
          NotificationRequestItem: {
            ...full,
            eventDate: new Date().toISOString(),
            additionalData: { ...item.additionalData, hmacSignature: adyenHmac(full, hmacKey) }
          }
        }
      })
    }
    return { rawBody: JSON.stringify(body), headers: {} as Readonly<Record<string, string>> }
  }

  const emit = (item: NotificationItem) => {
    if (webhook !== undefined) {
      const signed = notification([item], webhook.hmacKey)
      delivered.push(postNotification(webhook.url, signed.rawBody, signed.headers).catch(() => {}))
    }
    return item
  }

  const find = (psp: string) => payments.find((p) => p.pspReference === psp)

  const pay = (body: Record<string, unknown>, key: string | undefined): FakeResponse => {
    const amount = body.amount as { value?: unknown; currency?: unknown } | undefined
    const method = (body.paymentMethod ?? {}) as Record<string, unknown>
    const number = cardNumber(method.encryptedCardNumber)
    if (
      amount === undefined ||
      !Number.isInteger(amount.value) ||
      typeof amount.currency !== "string"
    ) {
      return adyenError(422, "100", "Required field 'amount' is not provided.", "validation")
    }
    if (typeof body.reference !== "string" || body.reference === "") {
      return adyenError(422, "130", "Required field 'reference' is not provided.", "validation")
    }
    const refused = metadataRefusal(body.metadata)
    if (refused !== undefined) return refused
    const card = number === undefined ? undefined : ADYEN_TEST_CARDS[number]
    if (card === undefined) {
      return adyenError(422, "174", "Unable to decrypt data", "validation")
    }
    const holder = typeof method.holderName === "string" ? method.holderName : ""
    const refusal = REFUSALS[holder]
    const payment: FakeAdyenPayment = {
      pspReference: pspReference(),
      idempotencyKey: key,
      merchantReference: body.reference,
      amount: { value: amount.value as number, currency: amount.currency },
      resultCode:
        refusal !== undefined ? "Refused" : holder === "PENDING" ? "Received" : "Authorised",
      metadata: (body.metadata ?? {}) as Record<string, string>,
      refunds: [],
      refunded: 0,
      disputed: false
    }
    payments.push(payment)
    if (payment.resultCode !== "Received")
      emit({
        eventCode: "AUTHORISATION",
        pspReference: payment.pspReference,
        merchantReference: payment.merchantReference,
        amount: payment.amount,
        success: refusal === undefined ? "true" : "false",
        ...(refusal === undefined ? {} : { reason: refusal.reason })
      })
    if (holder === "CHARGEBACK") chargeback(payment.pspReference)
    return {
      status: 200,
      body: {
        pspReference: payment.pspReference,
        resultCode: payment.resultCode,
        merchantReference: payment.merchantReference,
        amount: payment.amount,
        additionalData: {
          fundingSource: card.fundingSource,
          issuerCountry: card.country,
          cardBin: number?.slice(0, 6) ?? "",
          paymentMethod: card.brand
        },
        ...(refusal === undefined
          ? {}
          : { refusalReason: refusal.reason, refusalReasonCode: refusal.code })
      }
    }
  }

  const refund = (psp: string, body: Record<string, unknown>): FakeResponse => {
    const payment = find(psp)
    if (payment === undefined || payment.resultCode !== "Authorised") {
      return adyenError(
        422,
        "167",
        "Original pspReference required for this operation",
        "validation"
      )
    }
    const amount = body.amount as { value?: unknown; currency?: unknown } | undefined
    if (
      amount === undefined ||
      !Number.isInteger(amount.value) ||
      amount.currency !== payment.amount.currency
    ) {
      return adyenError(422, "137", "Invalid amount specified", "validation")
    }
    const value = amount.value as number
    const reference = pspReference()
    // Adyen accepts a refund request at once ("received") and reports its outcome later in
    // a REFUND notification: a refund beyond what is left fails there, not here.
    const fits = value <= payment.amount.value - payment.refunded
    if (fits) {
      payment.refunds.push({ pspReference: reference, value })
      payment.refunded += value
    }
    emit({
      eventCode: "REFUND",
      pspReference: reference,
      originalReference: payment.pspReference,
      merchantReference: String(body.reference ?? payment.merchantReference),
      amount: { value, currency: payment.amount.currency },
      success: fits ? "true" : "false",
      ...(fits ? {} : { reason: "Insufficient in process refund amount" })
    })
    return {
      status: 201,
      body: {
        merchantAccount,
        paymentPspReference: payment.pspReference,
        pspReference: reference,
        reference: body.reference,
        status: "received",
        amount: { value, currency: payment.amount.currency }
      }
    }
  }

  /** A refund made in Adyen's Customer Area: a REFUND notification. */
  const refundInCustomerArea = (psp: string, value: number) => {
    const payment = find(psp)
    if (payment === undefined) throw new Error(`no payment ${psp}`)
    const reference = pspReference()
    payment.refunds.push({ pspReference: reference, value })
    payment.refunded += value
    return emit({
      eventCode: "REFUND",
      pspReference: reference,
      originalReference: psp,
      merchantReference: payment.merchantReference,
      amount: { value, currency: payment.amount.currency },
      success: "true"
    })
  }

  const chargeback = (psp: string, reason = "Fraudulent transaction") => {
    const payment = find(psp)
    if (payment === undefined) throw new Error(`no payment ${psp}`)
    payment.disputed = true
    return emit({
      eventCode: "NOTIFICATION_OF_CHARGEBACK",
      pspReference: pspReference(),
      originalReference: payment.pspReference,
      merchantReference: payment.merchantReference,
      amount: payment.amount,
      success: "true",
      reason,
      additionalData: { chargebackReasonCode: "10.4", disputeStatus: "Undefended" }
    })
  }

  /**
   * The fake's own control endpoints (not Adyen's), for a test driving the fake in another
   * process: GET /_fake/payments, POST /_fake/webhook {url, hmacKey}, POST /_fake/chargeback
   * {pspReference}, POST /_fake/refund {pspReference, value}.
   */
  const control = (request: FakeRequest): FakeResponse => {
    const body = request.body === "" ? {} : (JSON.parse(request.body) as Record<string, unknown>)
    switch (`${request.method} ${request.path}`) {
      case "GET /_fake/payments":
        return { status: 200, body: payments }
      case "POST /_fake/webhook":
        webhook =
          typeof body.url === "string"
            ? { url: body.url, hmacKey: String(body.hmacKey) }
            : undefined
        return { status: 200, body: { ok: true } }
      case "POST /_fake/chargeback":
        return { status: 200, body: chargeback(String(body.pspReference)) }
      case "POST /_fake/refund":
        return {
          status: 200,
          body: refundInCustomerArea(String(body.pspReference), Number(body.value))
        }
      default:
        return adyenError(404, "000", "No such control endpoint.", "validation")
    }
  }

  const route = (request: FakeRequest): FakeResponse => {
    const { method, path } = request
    if (path.startsWith("/_fake/")) return control(request)
    const key = header(request, "idempotency-key")
    let body: Record<string, unknown>
    try {
      body = request.body === "" ? {} : (JSON.parse(request.body) as Record<string, unknown>)
    } catch {
      return adyenError(400, "702", "Structure of the request is not valid", "validation")
    }
    requests.push({ method, path, body, ...(key === undefined ? {} : { idempotencyKey: key }) })
    if (header(request, "x-api-key") !== apiKey) {
      return adyenError(401, "000", "HTTP Status Response - Unauthorized", "security")
    }
    if (method === "POST" && body.merchantAccount !== merchantAccount) {
      return adyenError(403, "901", "Invalid Merchant Account", "security")
    }
    if (method === "POST" && path === "/v72/paymentMethods") {
      return {
        status: 200,
        body: { paymentMethods: [{ type: "scheme", name: "Cards", brands: ["visa", "mc"] }] }
      }
    }
    if (method === "POST" && path === "/v72/cardDetails") {
      const card = ADYEN_TEST_CARDS[cardNumber(body.encryptedCardNumber) ?? ""]
      if (card === undefined) return adyenError(422, "174", "Unable to decrypt data", "validation")
      return {
        status: 200,
        body: {
          brands: [{ type: card.brand, supported: true }],
          fundingSource: card.fundingSource,
          isCardCommercial: card.commercial,
          issuingCountryCode: card.country
        }
      }
    }
    const refundPath = /^\/v72\/payments\/([^/]+)\/refunds$/.exec(path)
    if (method === "POST" && (path === "/v72/payments" || refundPath !== null)) {
      const execute = () =>
        refundPath === null ? pay(body, key) : refund(decodeURIComponent(refundPath[1] ?? ""), body)
      return idempotency.run(
        key,
        // Adyen documents no parameter check on a reused key: the first response comes back.
        `${method} ${path}`,
        execute,
        (first) => ({ ...first, headers: { "idempotency-key": key ?? "" } }),
        () => adyenError(422, "704", "request already processed or in progress", "validation")
      )
    }
    return adyenError(404, "000", `No endpoint ${method} ${path}`, "validation")
  }

  const listening = await listen(route, options.port)
  return {
    url: listening.url,
    apiKey,
    merchantAccount,
    /** Every payment the fake processed, refused ones included (`resultCode`). */
    payments: (): ReadonlyArray<FakeAdyenPayment> => payments,
    requests: () => requests,
    /** The cardholder's bank disputes a payment: NOTIFICATION_OF_CHARGEBACK. */
    chargeback,
    /** A dispute's end: CHARGEBACK (lost) or CHARGEBACK_REVERSED (won). */
    closeChargeback: (item: NotificationItem, outcome: "won" | "lost") => {
      const payment = find(item.originalReference ?? "")
      if (payment !== undefined && outcome === "won") payment.disputed = false
      return emit({
        ...item,
        eventCode: outcome === "won" ? "CHARGEBACK_REVERSED" : "CHARGEBACK",
        additionalData: { disputeStatus: outcome === "won" ? "Won" : "Lost" }
      })
    },
    refundInCustomerArea,
    /**
     * A refund Adyen had sent on is rejected by the card scheme: a REFUND_FAILED notification
     * (Adyen's webhook reference) for the refund's pspReference; the money is the merchant's again.
     */
    failRefund: (refundPsp: string, reason = "Refund rejected by the card scheme") => {
      const payment = payments.find((p) => p.refunds.some((r) => r.pspReference === refundPsp))
      const refund = payment?.refunds.find((r) => r.pspReference === refundPsp)
      if (payment === undefined || refund === undefined) throw new Error(`no refund ${refundPsp}`)
      payment.refunded -= refund.value
      return emit({
        eventCode: "REFUND_FAILED",
        pspReference: refundPsp,
        originalReference: payment.pspReference,
        merchantReference: payment.merchantReference,
        amount: { value: refund.value, currency: payment.amount.currency },
        success: "true",
        reason
      })
    },
    /** Notification items signed with `hmacKey`, as Adyen would POST them. */
    notification,
    sendWebhook: (url: string, items: ReadonlyArray<NotificationItem>, hmacKey: string) => {
      const signed = notification(items, hmacKey)
      return postNotification(url, signed.rawBody, signed.headers)
    },
    setWebhook: (target: { readonly url: string; readonly hmacKey: string } | undefined) => {
      webhook = target
    },
    settled: () => Promise.all(delivered),
    close: listening.close
  }
}

export type FakeAdyen = Awaited<ReturnType<typeof startFakeAdyen>>
