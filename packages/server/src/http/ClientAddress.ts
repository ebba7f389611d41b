/**
 * The client's address for rate limits (docs/design.md §9): the socket's, unless the socket is
 * one of the operator's configured proxies (`LEVY_TRUSTED_PROXIES`), then the nearest
 * `X-Forwarded-For` hop that is not one. A forwarded address from anyone else is ignored:
 * any client can write that header, and would pick its own bucket. Limits count an IPv6
 * client per /64 (`limitKey`).
 */
import { BlockList, isIP } from "node:net"
import ipaddr from "ipaddr.js"

/** The configured proxies (addresses or CIDR ranges, IPv4 or IPv6) as one list. */
export const proxies = (entries: ReadonlyArray<string>): BlockList | undefined => {
  if (entries.length === 0) return undefined
  const list = new BlockList()
  for (const entry of entries) {
    const [network = "", prefix] = entry.split("/")
    const type = isIP(network) === 6 ? "ipv6" : "ipv4"
    if (prefix === undefined) list.addAddress(network, type)
    else list.addSubnet(network, Number(prefix), type)
  }
  return list
}

/** Whether `entry` is an address or CIDR range `proxies` accepts. */
export const isProxyEntry = (entry: string): boolean => {
  const [network = "", prefix, ...rest] = entry.split("/")
  const family = isIP(network)
  if (family === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  const bits = Number(prefix)
  return /^\d+$/.test(prefix) && bits <= (family === 6 ? 128 : 32)
}

const isTrusted = (list: BlockList, address: string) =>
  isIP(address) !== 0 && list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4")

/** The address requests from `socket` (with its `X-Forwarded-For`) are counted under. */
export const of = (
  socket: string | undefined,
  forwardedFor: string | undefined,
  trusted: BlockList | undefined
): string | undefined => {
  if (socket === undefined || trusted === undefined || forwardedFor === undefined) return socket
  let address = socket
  const hops = forwardedFor.split(",").map((h) => h.trim())
  // From the nearest hop back: each trusted proxy vouches for the one before it.
  while (isTrusted(trusted, address)) {
    const previous = hops.pop()
    if (previous === undefined || isIP(previous) === 0) return address
    address = previous
  }
  return address
}

/** The prefix an IPv6 client is counted under: the smallest network one subscriber is given. */
export const IPV6_PREFIX = 64

/**
 * What a client address is counted under: an IPv4 address itself (an IPv4-mapped IPv6
 * address as the IPv4 it maps); an IPv6 address by its /64, since whoever holds one address
 * of a /64 holds all 2^64 of them and would otherwise have as many buckets; anything else
 * (none, or not an address) as it is.
 */
export const limitKey = (address: string | undefined): string => {
  if (address === undefined || isIP(address) !== 6) return address ?? "unknown"
  const parsed = ipaddr.IPv6.parse(address)
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString()
  const network = ipaddr.IPv6.networkAddressFromCIDR(
    `${parsed.toNormalizedString()}/${IPV6_PREFIX}`
  )
  return `${network.toRFC5952String()}/${IPV6_PREFIX}`
}
