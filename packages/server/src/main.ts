#!/usr/bin/env node
/**
 * The `levy` executable: the published package's `bin` (dist/main.js), and in the workspace
 * `node --import tsx packages/server/src/main.ts <command>`.
 * Logs are JSON lines on stderr; what a command prints for people (keys, results) is on
 * stdout. A bad command line exits 2 (@effect/cli has already printed what is wrong with
 * it), a failure 1 (a processor that refused or could not be reached too), SIGTERM/SIGINT 0 once everything is closed.
 */
// First: how far garbage may grow before a full collection (HeapGrowth.ts), set before the
// other modules load.
import "./heapGrowthAtStart.js"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect, Logger } from "effect"
import * as Args from "./cli/Args.js"
import * as Commands from "./cli/Commands.js"
import * as Failure from "./cli/Failure.js"
import { ListenError } from "./cli/Listen.js"

const exitWith = (code: number, message: string) =>
  Console.error(message).pipe(
    Effect.zipRight(
      Effect.sync(() => {
        process.exitCode = code
      })
    )
  )

const USAGE = "Usage: levy <command> [options]; `levy --help` lists the commands."

const program = Args.runWith(
  process.argv.slice(2),
  (command): Effect.Effect<void, unknown> =>
    command._tag === "Help" ? Console.log(Args.help()) : Commands.run(command)
).pipe(
  Effect.catchIf(ValidationError.isValidationError, () => exitWith(2, USAGE)),
  Effect.catchIf(
    (e): e is Args.UsageError => e instanceof Args.UsageError,
    (e) => exitWith(2, `levy: ${e.message}\n${USAGE}`)
  ),
  Effect.catchIf(
    (e): e is Args.CommandFailed => e instanceof Args.CommandFailed,
    (e) => exitWith(1, `levy: ${e.message}`)
  ),
  Effect.catchIf(
    (e): e is ListenError => e instanceof ListenError,
    (e) => exitWith(1, `levy listen: ${e.message}`)
  ),
  // A store that cannot be opened is one line, not the stack of every layer on the way.
  Effect.catchIf(Failure.isStorageError, (e) => exitWith(1, Failure.describe(e))),
  Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.jsonLogger)))
)

NodeRuntime.runMain(program, { disablePrettyLogger: true })
