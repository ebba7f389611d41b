/**
 * Where a webhook may be sent (docs/design.md §8). Checked when an endpoint is created or
 * updated, and again by the dispatcher at delivery time (a name may resolve elsewhere by
 * then): an absolute http(s) URL of at most 2048 characters that can be sent to as it is
 * (credentials that decode, a port that can be connected to); in live mode HTTPS only. Every
 * address the host is, or resolves to, must be public: what `ipaddr.js` names `unicast`, and
 * for IPv6 also within global unicast space (2000::/3), so loopback, private, link-local,
 * CGNAT, site-local, reserved, documentation, multicast and every other special range are
 * refused, as are the IPv6 forms that carry an IPv4 address a translator or relay would reach
 * (NAT64, SIIT, 6to4, Teredo, the deprecated IPv4-compatible `::a.b.c.d`). An IPv4-mapped
 * address (`::ffff:a.b.c.d`) is judged as the IPv4 it is: a connection to it goes there.
 * Test mode allows plain http, and loopback when the server runs for development
 * (`LoopbackTargets`), so developers can receive events on their machine, but nothing else
 * internal. Every address a name resolves to must pass, so a DNS answer that mixes a public
 * and a private address is refused.
 */
import { lookup as dnsLookup } from "node:dns/promises"
import { isIP } from "node:net"
import { Duration, Effect } from "effect"
import ipaddr from "ipaddr.js"
import { WebhookUrlRefused } from "./WebhookEndpointErrors.js"

/** Longest URL accepted. */
export const MAX_URL_LENGTH = 2048

/** A resolved address of the target host. */
export interface Address {
  readonly address: string
  readonly family: 4 | 6
}

/** A URL that passed, with the addresses it resolved to (the dispatcher may pin them). */
export interface ResolvedTarget {
  readonly url: URL
  /** The host without IPv6 brackets. */
  readonly host: string
  readonly addresses: ReadonlyArray<Address>
}

/** Resolves a host name to every address (replaceable in tests). */
export type Lookup = (host: string) => Promise<ReadonlyArray<Address>>

/** The system resolver: every address, in the order the resolver gives them. */
export const systemLookup: Lookup = async (host) => {
  const found = await dnsLookup(host, { all: true, verbatim: true })
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

/** How long a name may take to resolve before the URL is refused. */
const LOOKUP_TIMEOUT = Duration.seconds(5)

/** The address space public IPv6 hosts are in (RFC 4291 §2.4); the rest is not for us to reach. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3")

/** Cloud metadata services (AWS, GCP, Azure: 169.254.169.254; AWS over IPv6: fd00:ec2::254). */
const METADATA = new Set(
  ["169.254.169.254", "fd00:ec2::254"].map((a) => ipaddr.parse(a).toNormalizedString())
)

const TRANSLATED = "an IPv6 address that translates to IPv4 (NAT64, SIIT, 6to4, Teredo)"
const SPECIAL = "a special-purpose (reserved, documentation, benchmarking or protocol) address"

/**
 * What an address in each of `ipaddr.js`'s ranges is, for the message. Only `unicast` is ever
 * a target; a range not named here (one a later version adds) is refused as special-purpose.
 */
const REASONS: Readonly<Record<string, string>> = {
  private: "a private address",
  uniqueLocal: "a private address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a shared (CGNAT) address",
  unspecified: "an unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  deprecatedSiteLocal: "a site-local address",
  // They carry an IPv4 address that a gateway reaches for us: any IPv4, internal ones included.
  rfc6052: TRANSLATED,
  rfc6145: TRANSLATED,
  "6to4": TRANSLATED,
  teredo: TRANSLATED
}

/** The refusal of `url`, saying why (the HTTP API answers it as `url_invalid` on `url`). */
const refuse = (url: string, message: string) => new WebhookUrlRefused({ url, message })

/** Where a target is checked: its mode, and whether loopback is allowed in test mode. */
export interface Mode {
  readonly livemode: boolean
  /** Test mode only, on a server run for development (`LoopbackTargets`); default false. */
  readonly allowLoopback?: boolean | undefined
}

const LOOPBACK_CLASS = "loopback"

/** What an address is: the reason it is never a target, "loopback", or null (public). */
const classify = (text: string): string | null => {
  if (!ipaddr.isValid(text)) return "not an IP address"
  const parsed = ipaddr.parse(text)
  // A connection to an IPv4-mapped address goes to the IPv4 address itself.
  const ip =
    parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed
  if (METADATA.has(ip.toNormalizedString())) return "a cloud metadata address"
  const range = ip.range()
  if (range === "loopback") return LOOPBACK_CLASS
  if (range !== "unicast") return REASONS[range] ?? SPECIAL
  // ipaddr.js calls every IPv6 address outside its named ranges unicast, the unassigned and
  // the deprecated IPv4-compatible `::a.b.c.d` (`[::7f00:1]`) included: only 2000::/3 is global.
  if (ip.kind() === "ipv6" && !ip.match(GLOBAL_UNICAST)) return SPECIAL
  return null
}

/**
 * `classify` remembered by address: the dispatcher checks the target at every delivery
 * (docs/performance.md "Webhook delivery"). What an address is never changes; at most 10,000
 * are kept.
 */
const classes = new Map<string, string | null>()

const classOf = (a: Address): string | null => {
  let found = classes.get(a.address)
  if (found === undefined) {
    found = classify(a.address)
    if (classes.size >= 10_000) classes.clear()
    classes.set(a.address, found)
  }
  return found
}

/** Why `address` may not be a target in this mode, if it may not. */
export const forbiddenReason = (a: Address, options: Mode) => {
  const found = classOf(a)
  if (found !== null && found !== LOOPBACK_CLASS) return found
  if (found === LOOPBACK_CLASS) {
    if (options.livemode) return "a loopback address (allowed in test mode only)"
    if (options.allowLoopback !== true) {
      return "a loopback address (allowed only on a server run for development: levy serve --dev)"
    }
  }
  return undefined
}

/**
 * The `Authorization` value a request to `url` carries: its user name and password, decoded,
 * as Basic credentials (what node:http made of them); null when it has none, undefined when
 * they do not decode (`%zz`). The guard refuses such a URL and the sender never sends one.
 */
export const authorizationOf = (url: URL): string | null | undefined => {
  if (url.username === "" && url.password === "") return null
  try {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    return `Basic ${Buffer.from(credentials).toString("base64")}`
  } catch {
    return undefined
  }
}

/**
 * The URL parsed, if it is an absolute http(s) URL with a host, within the length limit, that
 * can be sent to as it is written.
 */
const parse = (text: string, livemode: boolean): Effect.Effect<URL, WebhookUrlRefused> => {
  if (text.length > MAX_URL_LENGTH) {
    return Effect.fail(refuse(text, `The URL must be at most ${MAX_URL_LENGTH} characters.`))
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return Effect.fail(refuse(text, "The URL must be an absolute http or https URL."))
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.hostname === "") {
    return Effect.fail(refuse(text, "The URL must be an absolute http or https URL."))
  }
  if (livemode && url.protocol !== "https:") {
    return Effect.fail(refuse(text, "Live-mode webhook endpoints must use https."))
  }
  if (authorizationOf(url) === undefined) {
    return Effect.fail(
      refuse(
        text,
        "The URL's user name or password is not valid percent-encoding (write '%' as '%25')."
      )
    )
  }
  // `URL` refuses ports above 65535; 0 parses but cannot be connected to.
  if (url.port === "0") {
    return Effect.fail(refuse(text, "The URL's port must be between 1 and 65535."))
  }
  return Effect.succeed(url)
}

/** The host's addresses: itself when it is an IP literal, else every address it resolves to. */
const resolve = (text: string, host: string, lookup: Lookup) => {
  const family = isIP(host)
  if (family === 4 || family === 6) {
    return Effect.succeed<ReadonlyArray<Address>>([{ address: host, family }])
  }
  return Effect.tryPromise(() => lookup(host)).pipe(
    Effect.timeoutFail({
      duration: LOOKUP_TIMEOUT,
      onTimeout: () => refuse(text, `The host '${host}' could not be resolved (DNS timed out).`)
    }),
    Effect.catchTag("UnknownException", () =>
      Effect.fail(refuse(text, `The host '${host}' could not be resolved.`))
    ),
    Effect.filterOrFail(
      (addresses) => addresses.length > 0,
      () => refuse(text, `The host '${host}' has no address.`)
    )
  )
}

/**
 * Whether webhooks may be sent to `text` in this mode: the parsed URL and its addresses,
 * or the refusal saying why not.
 */
export const check = (
  text: string,
  options: Mode & { readonly lookup?: Lookup | undefined }
): Effect.Effect<ResolvedTarget, WebhookUrlRefused> =>
  Effect.gen(function* () {
    const url = yield* parse(text, options.livemode)
    // `URL` keeps IPv6 literals in brackets: `[::1]`.
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1")
    const addresses = yield* resolve(text, host, options.lookup ?? systemLookup)
    for (const a of addresses) {
      const reason = forbiddenReason(a, options)
      if (reason !== undefined) {
        return yield* refuse(
          text,
          isIP(host) === 0
            ? `The host '${host}' resolves to ${a.address}, ${reason}.`
            : `The URL's host is ${reason}.`
        )
      }
    }
    return { url, host, addresses }
  })
