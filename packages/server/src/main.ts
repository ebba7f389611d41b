/**
 * The `levy` executable: `node --import tsx packages/server/src/main.ts <command>`.
 * Logs are JSON lines on stderr; what a command prints for people (keys, results) is on
 * stdout. A bad command line exits 2 with the usage, a failure 1, SIGTERM/SIGINT 0 once
 * everything is closed.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect, Logger } from "effect"
import { parse, UsageError, usage } from "./cli/Args.js"
import * as Commands from "./cli/Commands.js"

const isUsageError = (e: unknown): e is UsageError => e instanceof UsageError

const program = Effect.suspend((): Effect.Effect<void, unknown> => {
  const command = parse(process.argv.slice(2), process.env)
  return command._tag === "Help" ? Console.log(usage) : Commands.run(command)
}).pipe(
  // `parse` throws its UsageError: a defect here, turned back into a failure.
  Effect.catchAllDefect((defect) =>
    isUsageError(defect) ? Effect.fail(defect) : Effect.die(defect)
  ),
  Effect.catchIf(isUsageError, (e) =>
    Console.error(`levy: ${e.message}\n\n${usage}`).pipe(
      Effect.zipRight(
        Effect.sync(() => {
          process.exitCode = 2
        })
      )
    )
  ),
  Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.jsonLogger)))
)

NodeRuntime.runMain(program, { disablePrettyLogger: true })
