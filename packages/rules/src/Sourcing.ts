/**
 * The sourcing standard (docs/compliance.md, "Sourcing standard"), as far as a machine can
 * check it: no citation from a host that is no authority, a copy cited as what it is, no
 * tracking parameters in a cited URL, and every version in force when the record was checked
 * (or announced after) resting on a primary source unless it says `confidence: low`.
 */
import * as Hosts from "./Hosts.js"

/** The kinds that name the authority itself: the law's text, the regulator, the network. */
export const primaryKinds: ReadonlyArray<string> = ["statute", "regulator", "network"]

/** Query parameters that track a reader and say nothing about the page. */
const tracking =
  /^(utm_.*|fbclid|gclid|msclkid|mc_cid|mc_eid|share|replytocom|wptouch_switch|.+_page)$/i

interface Cited {
  readonly url: string
  readonly kind: string
}
interface Dated {
  readonly effectiveUntil: string | null
  readonly confidence: string
  readonly sources: ReadonlyArray<Cited>
}

/** What the record's citations break of the standard, each naming the version and the URL. */
export const problems = (record: {
  readonly checkedOn: string
  readonly versions: ReadonlyArray<Dated & { readonly effectiveFrom: string }>
}): ReadonlyArray<string> =>
  record.versions.flatMap((version, i) => {
    const at = `versions[${i}] (${version.effectiveFrom})`
    const found = version.sources.flatMap((source) =>
      citationProblems(source).map((p) => `${at}: ${p}`)
    )
    const inForce = version.effectiveUntil === null || version.effectiveUntil > record.checkedOn
    if (inForce && version.confidence !== "low" && !version.sources.some(isPrimary)) {
      found.push(
        `${at}: in force on ${record.checkedOn} without a primary source, so its confidence must be low`
      )
    }
    return found
  })

export const isPrimary = (source: Cited): boolean =>
  primaryKinds.includes(source.kind) && Hosts.secondaryOnlyHost(source.url) === undefined

const citationProblems = (source: Cited): ReadonlyArray<string> => {
  const found: Array<string> = []
  const banned = Hosts.noAuthorityHost(source.url)
  if (banned !== undefined)
    found.push(`${source.url} is on ${banned[0]}, no authority (${banned[1]})`)
  const copy = Hosts.secondaryOnlyHost(source.url)
  if (copy !== undefined && source.kind !== "secondary") {
    found.push(
      `${source.url} is on ${copy[0]} (${copy[1]}): its kind is secondary, not ${source.kind}`
    )
  }
  const params = trackingParams(source.url)
  if (params.length > 0)
    found.push(`${source.url} carries tracking parameters (${params.join(", ")})`)
  return found
}

const trackingParams = (url: string): ReadonlyArray<string> => {
  try {
    return [...new URL(url).searchParams.keys()].filter((key) => tracking.test(key))
  } catch {
    return []
  }
}
