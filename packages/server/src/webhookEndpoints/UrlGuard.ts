/**
 * Where a webhook may be sent (docs/design.md §8). Checked when an endpoint is created or
 * updated, and again by the dispatcher at delivery time (a name may resolve elsewhere by
 * then): an absolute http(s) URL of at most 2048 characters; in live mode HTTPS only and
 * no address that reaches into our own network — loopback, private, link-local, CGNAT,
 * "this network", cloud metadata, special-purpose and reserved IPv4, multicast, broadcast,
 * NAT64 and 6to4 (which carry an IPv4 address), or an IPv4-mapped IPv6 form of one of those. Test mode
 * allows plain http, and loopback when the server runs for development (`LoopbackTargets`),
 * so developers can receive events on their machine, but nothing else internal. Every address a name resolves to must pass, so a DNS answer that
 * mixes a public and a private address is refused.
 */
import { lookup as dnsLookup } from "node:dns/promises"
import { BlockList, isIP } from "node:net"
import { ApiError } from "@levy/api"
import { Duration, Effect } from "effect"

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

const subnets = (entries: ReadonlyArray<readonly [string, number, "ipv4" | "ipv6"]>) => {
  const list = new BlockList()
  for (const [network, prefix, type] of entries) list.addSubnet(network, prefix, type)
  return list
}

// Node's BlockList also matches IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) against IPv4 rules.
const LOOPBACK = subnets([
  ["127.0.0.0", 8, "ipv4"],
  ["::1", 128, "ipv6"]
])

/** Never a webhook target, in either mode; each with why, for the message. */
const FORBIDDEN: ReadonlyArray<readonly [BlockList, string]> = [
  [
    subnets([
      ["169.254.169.254", 32, "ipv4"],
      ["fd00:ec2::254", 128, "ipv6"]
    ]),
    "a cloud metadata address"
  ],
  [
    subnets([
      ["10.0.0.0", 8, "ipv4"],
      ["172.16.0.0", 12, "ipv4"],
      ["192.168.0.0", 16, "ipv4"],
      ["fc00::", 7, "ipv6"]
    ]),
    "a private address"
  ],
  [
    subnets([
      ["169.254.0.0", 16, "ipv4"],
      ["fe80::", 10, "ipv6"]
    ]),
    "a link-local address"
  ],
  [subnets([["100.64.0.0", 10, "ipv4"]]), "a shared (CGNAT) address"],
  // IPv6 forms that carry an IPv4 address a gateway reaches for us: any IPv4 (internal ones
  // included) behind NAT64 or 6to4.
  [
    subnets([
      ["64:ff9b::", 96, "ipv6"],
      ["64:ff9b:1::", 48, "ipv6"],
      ["2002::", 16, "ipv6"]
    ]),
    "an IPv6 address that translates to IPv4 (NAT64, 6to4)"
  ],
  [
    subnets([
      ["192.0.0.0", 24, "ipv4"],
      ["198.18.0.0", 15, "ipv4"],
      ["240.0.0.0", 4, "ipv4"]
    ]),
    "a special-purpose (IETF protocol, benchmarking or reserved) address"
  ],
  [
    subnets([
      ["224.0.0.0", 4, "ipv4"],
      ["ff00::", 8, "ipv6"]
    ]),
    "a multicast address"
  ],
  [subnets([["255.255.255.255", 32, "ipv4"]]), "the broadcast address"],
  [
    subnets([
      ["0.0.0.0", 8, "ipv4"],
      ["::", 128, "ipv6"]
    ]),
    "an unspecified address"
  ]
]

const refuse = (message: string) =>
  new ApiError.InvalidRequestError({ code: "url_invalid", param: "url", message })

const typeOf = (a: Address) => (a.family === 6 ? "ipv6" : "ipv4")

/** Where a target is checked: its mode, and whether loopback is allowed in test mode. */
export interface Mode {
  readonly livemode: boolean
  /** Test mode only, on a server run for development (`LoopbackTargets`); default false. */
  readonly allowLoopback?: boolean | undefined
}

/** What an address is: the reason it is never a target, "loopback", or null (public). */
const classify = (a: Address): string | null => {
  for (const [list, reason] of FORBIDDEN) if (list.check(a.address, typeOf(a))) return reason
  return LOOPBACK.check(a.address, typeOf(a)) ? LOOPBACK_CLASS : null
}

const LOOPBACK_CLASS = "loopback"

/**
 * `classify` remembered by address: the dispatcher checks the target at every delivery, and
 * `BlockList.check` builds a `SocketAddress` per list and call (docs/performance.md "Webhook
 * delivery"). What an address is never changes; at most 10,000 are kept.
 */
const classes = new Map<string, string | null>()

const classOf = (a: Address): string | null => {
  const key = `${a.family}/${a.address}`
  let found = classes.get(key)
  if (found === undefined) {
    found = classify(a)
    if (classes.size >= 10_000) classes.clear()
    classes.set(key, found)
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

/** The URL parsed, if it is an absolute http(s) URL with a host, within the length limit. */
const parse = (
  text: string,
  livemode: boolean
): Effect.Effect<URL, ApiError.InvalidRequestError> => {
  if (text.length > MAX_URL_LENGTH) {
    return Effect.fail(refuse(`The URL must be at most ${MAX_URL_LENGTH} characters.`))
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return Effect.fail(refuse("The URL must be an absolute http or https URL."))
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.hostname === "") {
    return Effect.fail(refuse("The URL must be an absolute http or https URL."))
  }
  if (livemode && url.protocol !== "https:") {
    return Effect.fail(refuse("Live-mode webhook endpoints must use https."))
  }
  return Effect.succeed(url)
}

/** The host's addresses: itself when it is an IP literal, else every address it resolves to. */
const resolve = (host: string, lookup: Lookup) => {
  const family = isIP(host)
  if (family === 4 || family === 6) {
    return Effect.succeed<ReadonlyArray<Address>>([{ address: host, family }])
  }
  return Effect.tryPromise(() => lookup(host)).pipe(
    Effect.timeoutFail({
      duration: LOOKUP_TIMEOUT,
      onTimeout: () => refuse(`The host '${host}' could not be resolved (DNS timed out).`)
    }),
    Effect.catchTag("UnknownException", () =>
      Effect.fail(refuse(`The host '${host}' could not be resolved.`))
    ),
    Effect.filterOrFail(
      (addresses) => addresses.length > 0,
      () => refuse(`The host '${host}' has no address.`)
    )
  )
}

/**
 * Whether webhooks may be sent to `text` in this mode: the parsed URL and its addresses,
 * or a 400 `url_invalid` on `url` saying why not.
 */
export const check = (
  text: string,
  options: Mode & { readonly lookup?: Lookup | undefined }
): Effect.Effect<ResolvedTarget, ApiError.InvalidRequestError> =>
  Effect.gen(function* () {
    const url = yield* parse(text, options.livemode)
    // `URL` keeps IPv6 literals in brackets: `[::1]`.
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1")
    const addresses = yield* resolve(host, options.lookup ?? systemLookup)
    for (const a of addresses) {
      const reason = forbiddenReason(a, options)
      if (reason !== undefined) {
        return yield* refuse(
          isIP(host) === 0
            ? `The host '${host}' resolves to ${a.address}, ${reason}.`
            : `The URL's host is ${reason}.`
        )
      }
    }
    return { url, host, addresses }
  })
