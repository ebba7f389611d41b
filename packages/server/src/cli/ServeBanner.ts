/**
 * What `levy serve` prints at start for whoever started it (docs/cli.md): which mode it runs
 * in and what decided it, since development mode (the development account, loopback webhook
 * targets) is the default on the embedded store and must not pass unnoticed in production;
 * where a development server listens; and in development mode the test-mode rate limit with
 * the setting that raises it.
 */
import type { Duration } from "effect"
import * as RateLimit from "../http/RateLimit.js"
import { type Command, LOOPBACK } from "./Args.js"

type Serve = Extract<Command, { _tag: "Serve" }>

const why = (command: Serve): string => {
  switch (command.devBy) {
    case "flag":
      return "--dev"
    case "env":
      return `LEVY_DEV=${command.dev}`
    case "store":
      return `the default on the ${command.store.store} store`
  }
}

/** The lines, given the test-mode limit in force (`rateLimits.test` per `window`). */
export const lines = (
  command: Serve,
  testLimit: number,
  window: Duration.Duration
): ReadonlyArray<string> => {
  if (!command.dev) {
    return [
      `Production mode (${why(command)}): no development account is created and webhook endpoints may not target loopback.`
    ]
  }
  return [
    `Development mode (${why(command)}): a development account on an empty store, test-mode webhook endpoints may target loopback. Not for production: use --store postgres, or LEVY_DEV=false.`,
    ...(command.host === LOOPBACK
      ? [
          `Listening on ${LOOPBACK} only, as a development server; --host (or HOST) to listen elsewhere.`
        ]
      : []),
    `Rate limit: ${testLimit} requests per ${RateLimit.windowText(window)} per test-mode key; raise it with LEVY_RATE_LIMIT_TEST (e.g. LEVY_RATE_LIMIT_TEST=1000 levy serve --dev).`
  ]
}
