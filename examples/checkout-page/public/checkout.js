// @ts-check
/**
 * The checkout page (no build step): quotes the order for the card the shopper picks, with the
 * publishable key, straight from Levy (`POST /v1/estimates` with `source`), shows the fee line,
 * the total and the disclosure, and pays through the backend with the quote shown. Only the
 * latest card's answer is shown: an earlier card's answer arriving late is dropped.
 */

/**
 * @typedef {{ description: string, amount: number, currency: string, region: string,
 *   exponent: number, displayDigits: number }} Order
 * @typedef {{ publishableKey: string, levyUrl: string, order: Order }} Config
 * @typedef {{ funding: string, network: string | null, country: string | null, category: string }} Card
 * @typedef {{ id?: string, expiresAt?: number, baseAmount: number, convenienceFee: number,
 *   totalAmount: number, compliance: { disclosureText: string | null }, card?: Card }} Estimate
 * @typedef {{ type: string, code: string, message: string, param?: string | null }} ApiError
 */

/** @param {string} selector */
const $ = (selector) => {
  const found = document.querySelector(selector)
  if (!(found instanceof HTMLElement)) throw new Error(`${selector} is missing`)
  return found
}
/** @param {string} id */
const byTestId = (id) => $(`[data-testid="${id}"]`)

const cards = /** @type {HTMLFieldSetElement} */ ($("#cards"))
const summary = $("#summary")
const payButton = /** @type {HTMLButtonElement} */ ($("#pay"))
const result = $("#result")

/** @type {Config} */
const config = await (await fetch("/config.json")).json()
const { order } = config

/**
 * Integer minor units as a price: the digits are moved across the decimal point as text and
 * Intl formats that decimal text exactly (no floating-point arithmetic on money).
 * @param {number} minor
 */
const money = (minor) => {
  const digits = String(Math.abs(minor)).padStart(order.exponent + 1, "0")
  const whole = digits.slice(0, digits.length - order.exponent)
  const fraction = digits.slice(digits.length - order.exponent)
  const decimal = `${minor < 0 ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`
  const format = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: order.currency.toUpperCase(),
    minimumFractionDigits: order.displayDigits,
    maximumFractionDigits: order.displayDigits
  })
  // a decimal string is formatted exactly (Intl.NumberFormat v3); the cast is for older typings
  return format.format(/** @type {number} */ (/** @type {unknown} */ (decimal)))
}

/** "est_WzEsImFj…q2mX": enough to recognise the quote. @param {string} id */
const shortId = (id) => `${id.slice(0, 12)}…${id.slice(-4)}`

/** @param {Card} card */
const describeCard = (card) =>
  [
    card.network ?? "unknown network",
    card.funding,
    card.category === "unknown" ? "" : card.category,
    card.country === null ? "" : `issued in ${card.country}`
  ]
    .filter((part) => part !== "")
    .join(" · ")

/** The quote shown, and the card it was made for: what Pay sends. */
/** @type {{ estimate: Estimate, source: string } | undefined} */
let shown
/** Each quote request's number; an answer that is not the latest one's is dropped. */
let latest = 0
let paid = false

/** @param {string} text @param {"ok" | "bad" | ""} tone */
const say = (text, tone) => {
  result.textContent = text
  result.className = tone
  result.setAttribute("role", tone === "bad" ? "alert" : "status")
}

const renderPay = () => {
  payButton.disabled = shown === undefined || paid
  payButton.textContent = shown === undefined ? "Pay" : `Pay ${money(shown.estimate.totalAmount)}`
}

/** @param {Estimate | undefined} estimate */
const renderSummary = (estimate) => {
  byTestId("amount").textContent = money(order.amount)
  const fee = byTestId("fee")
  if (estimate === undefined) {
    fee.textContent = "choose a card"
    fee.removeAttribute("data-minor")
    byTestId("total").textContent = "—"
  } else {
    fee.textContent = estimate.convenienceFee === 0 ? "none" : money(estimate.convenienceFee)
    fee.dataset.minor = String(estimate.convenienceFee)
    byTestId("total").textContent = money(estimate.totalAmount)
  }
  byTestId("disclosure").textContent = estimate?.compliance.disclosureText ?? ""
  byTestId("card").textContent =
    estimate?.card === undefined ? "" : `Quoted for your card: ${describeCard(estimate.card)}`
  const quote = byTestId("quote")
  if (estimate?.id === undefined || estimate.expiresAt === undefined) {
    quote.textContent = ""
    delete quote.dataset.id
  } else {
    const until = new Date(estimate.expiresAt * 1000).toLocaleTimeString("en-US")
    quote.textContent = `Quote ${shortId(estimate.id)}, valid until ${until}; the charge never takes more than this fee.`
    quote.dataset.id = estimate.id
  }
}

/** Asks Levy for the fee of the order on `source`, with the publishable key. @param {string} source */
const requote = async (source) => {
  const ticket = ++latest
  shown = undefined
  summary.setAttribute("aria-busy", "true")
  renderPay()
  try {
    const response = await fetch(`${config.levyUrl}/v1/estimates`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${config.publishableKey}`,
        "content-type": "application/json"
      },
      body: JSON.stringify({
        amount: order.amount,
        currency: order.currency,
        region: order.region,
        source
      })
    })
    const body = await response.json()
    if (ticket !== latest) return
    if (!response.ok) throw new Error(/** @type {{ error: ApiError }} */ (body).error.message)
    shown = { estimate: body, source }
    renderSummary(body)
    say("", "")
  } catch (error) {
    if (ticket !== latest) return
    renderSummary(undefined)
    say(`Could not quote the fee for this card: ${String(error)}`, "bad")
  } finally {
    if (ticket === latest) {
      summary.removeAttribute("aria-busy")
      renderPay()
    }
  }
}

/** Sends the card and the quote shown to the backend, which charges with the quote. */
const pay = async () => {
  if (shown === undefined) return
  const { estimate, source } = shown
  payButton.disabled = true
  cards.disabled = true
  delete result.dataset.code
  delete result.dataset.charge
  say("Paying…", "")
  try {
    const response = await fetch("/pay", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ source, estimate: estimate.id })
    })
    const body = await response.json()
    if (response.ok) {
      paid = true
      const fee =
        body.convenienceFee === 0
          ? "no card surcharge"
          : `card surcharge ${money(body.convenienceFee)}`
      say(`Paid ${money(body.totalAmount)} (${fee}). Charge ${body.id}.`, "ok")
      result.dataset.charge = body.id
      return
    }
    const error = /** @type {{ error: ApiError }} */ (body).error
    say(`Not paid: ${error.message} (${error.code})`, "bad")
    result.dataset.code = error.code
    // the shopper must see the fee again before paying: a new quote for the same card
    if (error.code === "estimate_expired") await requote(source)
  } catch (error) {
    say(`Not paid: ${String(error)}`, "bad")
  } finally {
    cards.disabled = paid
    renderPay()
  }
}

cards.addEventListener("change", (event) => {
  const input = event.target
  if (!(input instanceof HTMLInputElement)) return
  void requote(input.value)
})
payButton.addEventListener("click", () => {
  void pay()
})

$("#order").textContent = `${order.description} (${order.region}): ${money(order.amount)}`
renderSummary(undefined)
renderPay()
cards.disabled = false
