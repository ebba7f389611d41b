/**
 * `levy listen`: forwards the test-mode events of the key's account to a local URL, signed
 * as webhook deliveries are (docs/design.md §8), for development without a public endpoint.
 *
 * It polls `GET /v1/events` with `ending_before` of the newest event seen: the page just
 * newer than the cursor, newest first, `has_more` when still newer ones wait. It starts
 * from "now" (the newest event when it starts) unless `--since` asks for history. Each
 * event is POSTed once, in creation order; a receiver that fails is reported, not retried
 * (a registered webhook endpoint is what retries). The signing secret is made per session
 * and printed, so the receiver under development can verify with it. Polls are paced to a
 * quarter of the key's rate limit (Pace.ts), so the integrator's own calls are not refused.
 */
import { WebhookSignature } from "@levy/api"
import * as Keys from "@levy/engine/access/Keys.js"
import { Console, Data, Duration, Effect } from "effect"
import type { Command } from "./Args.js"
import * as Pace from "./Pace.js"

type Options = Extract<Command, { _tag: "Listen" }>

/** A receiver that takes longer than this is reported as failed (as the dispatcher does). */
const FORWARD_TIMEOUT_MS = 10_000
const PAGE = 100

/** The Levy server refused or could not be reached. */
export class ListenError extends Data.TaggedError("ListenError")<{
  readonly message: string
  /** The server refused the key: polling again cannot help. */
  readonly fatal: boolean
}> {}

/** An event as listed: forwarded with exactly these fields. */
interface WireEvent {
  readonly id: string
  readonly type: string
  readonly created: number
}

interface Listed {
  readonly data: ReadonlyArray<WireEvent>
  readonly has_more: boolean
}

/** The rate state the latest answer reported: it paces the polls (Pace.ts). */
let rate: Pace.RateState | undefined

/** One `GET /v1/events` page. */
const list = (options: Options, query: Record<string, string>) =>
  Effect.tryPromise({
    try: async () => {
      const url = `${options.apiBase}/v1/events?${new URLSearchParams({ limit: String(PAGE), ...query })}`
      const response = await fetch(url, { headers: { authorization: `Bearer ${options.apiKey}` } })
      rate = Pace.fromHeaders(response.headers) ?? rate
      const body: unknown = await response.json().catch(() => undefined)
      return { status: response.status, body }
    },
    catch: (e) =>
      new ListenError({
        message: `cannot reach ${options.apiBase}: ${e instanceof Error ? e.message : String(e)}`,
        fatal: false
      })
  }).pipe(
    Effect.flatMap(({ status, body }) => {
      if (status === 200) return Effect.succeed(body as Listed)
      const error = (body as { error?: { message?: string } } | undefined)?.error
      return Effect.fail(
        new ListenError({
          message: `${options.apiBase} answered ${status}: ${error?.message ?? "no error message"}`,
          fatal: status === 401 || status === 403 || status === 400
        })
      )
    })
  )

/** POSTs one event to the receiver, signed; returns the line to print. */
const forward = (options: Options, secret: string, event: WireEvent) =>
  Effect.promise(async () => {
    const body = JSON.stringify(event)
    const signature = await WebhookSignature.sign([secret], Date.now() / 1000, body)
    try {
      const response = await fetch(options.forwardTo, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [WebhookSignature.WEBHOOK_ID_HEADER]: event.id,
          [WebhookSignature.SIGNATURE_HEADER]: signature
        },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS)
      })
      await response.body?.cancel()
      return `--> ${event.type} [${event.id}]  <-- ${response.status}`
    } catch (e) {
      const reason =
        e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)
      return `--> ${event.type} [${event.id}]  <-- failed: ${reason}`
    }
  }).pipe(Effect.flatMap(Console.log))

/** Every event created at or after `since`, oldest first (walking the pages back in time). */
const history = (options: Options, since: number) =>
  Effect.gen(function* () {
    const events: Array<WireEvent> = []
    for (;;) {
      const last = events.at(-1)
      const page = yield* list(options, {
        "created[gte]": String(since),
        ...(last === undefined ? {} : { starting_after: last.id })
      })
      events.push(...page.data)
      if (!page.has_more || page.data.length === 0) return events.reverse()
    }
  })

/** The newest event now, where forwarding starts; undefined when the account has none. */
const newest = (options: Options) =>
  Effect.map(list(options, { limit: "1" }), (page) => page.data[0]?.id)

/** One poll: forwards what is newer than `cursor`; returns the new cursor and whether more wait. */
const poll = (options: Options, secret: string, cursor: string | undefined) =>
  Effect.gen(function* () {
    // Without a cursor the account had no event when listening began: all are new.
    const page = yield* list(options, cursor === undefined ? {} : { ending_before: cursor })
    for (const event of [...page.data].reverse()) yield* forward(options, secret, event)
    return { cursor: page.data[0]?.id ?? cursor, more: page.has_more }
  })

/** Forwards until interrupted (^C); fails when the key is refused. */
export const run = (options: Options) =>
  Effect.gen(function* () {
    const secret = `whsec_dev_${Keys.random62(Keys.RANDOM_LENGTH)}`
    // Both reach the server first, so a wrong key or URL fails before "Ready!".
    const past = options.since === undefined ? [] : yield* history(options, options.since)
    let cursor = past.at(-1)?.id ?? (yield* newest(options))
    yield* Console.log(
      `Ready! Your webhook signing secret is ${secret} (^C to quit)\n` +
        `Forwarding test-mode events to ${options.forwardTo}`
    )
    for (const event of past) yield* forward(options, secret, event)
    for (;;) {
      const next = yield* poll(options, secret, cursor).pipe(
        // A server restarting is waited for; a refused key ends the session.
        Effect.catchIf(
          (e) => !e.fatal,
          (e) =>
            Effect.as(Console.error(`levy listen: ${e.message}; retrying`), { cursor, more: false })
        )
      )
      cursor = next.cursor
      // More pages waiting are fetched at once while the listener's share of the limit lasts.
      const spare =
        rate === undefined || rate.remaining > rate.limit - Math.floor(rate.limit * Pace.SHARE)
      if (!next.more || !spare) yield* Effect.sleep(Duration.millis(Pace.delayMs(rate, Date.now())))
    }
  })
