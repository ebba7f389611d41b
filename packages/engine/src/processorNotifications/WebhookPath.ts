/**
 * The processor-webhook URL of an account, mode and processor (docs/processors.md
 * "Processor webhooks"): `POST /v1/processor-webhooks/<account>/<test|live>/<processor>`.
 */

/** The paths the route owns whole (the edge hands it every request under them). */
export const PREFIX = "/v1/processor-webhooks/"

/** What a processor-webhook URL names. */
export interface Target {
  readonly accountId: string
  readonly livemode: boolean
  readonly processor: string
}

/** Account ids and processor names: letters, digits, `_` and `-`, as Levy makes them. */
const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/

/** The account, mode and processor of a processor-webhook path; undefined for anything else. */
export const parse = (pathname: string): Target | undefined => {
  if (!pathname.startsWith(PREFIX)) return undefined
  const [accountId, mode, processor, ...rest] = pathname.slice(PREFIX.length).split("/")
  if (rest.length > 1 || (rest.length === 1 && rest[0] !== "")) return undefined
  if (accountId === undefined || processor === undefined) return undefined
  if (!SEGMENT.test(accountId) || !SEGMENT.test(processor)) return undefined
  if (mode !== "test" && mode !== "live") return undefined
  return { accountId, livemode: mode === "live", processor }
}

/** The path of a target (what the processor-config object reports as `webhookUrl`). */
export const pathOf = (target: Target): string =>
  `${PREFIX}${target.accountId}/${target.livemode ? "live" : "test"}/${target.processor}`
