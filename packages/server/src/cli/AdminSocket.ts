/**
 * Administration while `levy serve` holds the embedded store (docs/cli.md "While levy serve
 * runs"). The store is one process at a time, so `levy keys create` (a second person's live
 * key, to approve a fee raise) could not open it while the server ran, and no API key may mint
 * another (that would defeat four-eyes approval). So the server listens on a Unix socket,
 * `levy.sock` in its data directory, and runs there, on its own open store, the same command
 * code a `levy` process would have run; the `levy` process only sends the parsed command and
 * prints what comes back. The authority is the file system's, as for the store itself: the
 * socket is the server's user's only (mode 0600), in a directory of that user that no one else
 * can write (else another user could put their own socket in its place), and both ends check
 * that before they listen or send.
 *
 * The protocol: one HTTP request per command over the socket (node:http, `socketPath`),
 * `POST /commands` with `{ version, command }` (the parsed `Command`: `env:VAR` credentials
 * are read by the sending process, as without a server), answered
 * `{ stdout: [lines], failure?: { tag: "UsageError" | "CommandFailed", message } }`, which the
 * sender prints and exits with as if it had run the command itself.
 */
import { chmodSync, lstatSync, rmSync, statSync } from "node:fs"
import * as Http from "node:http"
import { join } from "node:path"
import { format } from "node:util"
import * as Store from "@levy/engine/Store.js"
import { DataDirLock, Storage } from "@levy/storage"
import { Cause, Console, Effect, Exit, Layer, Option, Runtime } from "effect"
import { version } from "../Version.js"
import { type Command, CommandFailed, UsageError } from "./Args.js"
import * as Failure from "./Failure.js"

export const FILE = "levy.sock"

/** What the server answers for one command. */
export interface Reply {
  readonly stdout: ReadonlyArray<string>
  readonly failure?: { readonly tag: "UsageError" | "CommandFailed"; readonly message: string }
}

/** Runs a command in this process (Commands.ts). */
type Runner = (command: Command) => Effect.Effect<void, unknown>

/** The store a command opens, when it is one the server runs for its socket. */
const storeOf = (command: Command): Store.Options | undefined => {
  switch (command._tag) {
    case "Migrate":
    case "AccountsCreate":
    case "KeysRoll":
    case "KeysCreate":
    case "KeysList":
    case "KeysRevoke":
    case "FeeConfigsResolve":
    case "ProcessorsSet":
    case "ProcessorsShow":
    case "ProcessorsDelete":
    case "ProcessorsResolve":
      return command.store
    case "RulesDiff":
      return command.account?.store
    default:
      return undefined
  }
}

/** `command` on the server's store and data directory instead of the sender's. */
const onStore = (command: Command, store: Store.Options): Command =>
  command._tag === "RulesDiff"
    ? command.account === undefined
      ? command
      : { ...command, account: { ...command.account, store } }
    : ({ ...command, store } as Command)

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, "0")

/**
 * Why `dir` cannot hold the socket: another user's, or writable by its group or everyone
 * (who could remove the socket and listen in its place). Readable by others is no matter:
 * connecting needs write permission on the socket itself, which is 0600.
 */
export const unsafeDirectory = (dir: string): string | undefined => {
  const uid = process.getuid?.()
  if (uid === undefined) return "this platform has no file owners to check"
  const stat = statSync(dir)
  if (stat.uid !== uid) return `${dir} belongs to user ${stat.uid}, not to this user (${uid})`
  if ((stat.mode & 0o022) !== 0) {
    return `${dir} is writable by its group or by everyone (mode ${octal(stat.mode)}), so another user could replace the socket; chmod 700 ${dir}`
  }
  return undefined
}

/** Why the file at `path` is not a socket only this user can use. */
const unsafeSocket = (path: string): string | undefined => {
  const stat = lstatSync(path)
  if (!stat.isSocket()) return `${path} is not a socket`
  if (stat.uid !== process.getuid?.()) return `${path} belongs to user ${stat.uid}`
  if ((stat.mode & 0o077) !== 0) return `${path} is not owner-only (mode ${octal(stat.mode)})`
  return undefined
}

// ---------------------------------------------------------------------------------------
// The sending side: a `levy` command whose data directory a running server holds.

/**
 * Runs `command` through the server that holds its embedded store, when its socket answers;
 * otherwise here (a free or stale lock opens the store; a held one fails saying so).
 */
export const viaServer = (command: Command, here: Runner): Effect.Effect<void, unknown> => {
  const store = storeOf(command)
  if (store === undefined || store.store !== "embedded") return here(command)
  const database = Storage.dataDirPaths(store.dataDir).database
  return Effect.flatMap(
    Effect.sync(() => DataDirLock.heldBy(database)),
    (holder) =>
      holder === undefined
        ? here(command)
        : Effect.flatMap(
            send(store.dataDir, command),
            Option.match({ onNone: () => here(command), onSome: printed })
          )
  )
}

/** What the server printed, then its failure as this process's own. */
const printed = (reply: Reply) =>
  Effect.gen(function* () {
    if (!Array.isArray(reply?.stdout)) {
      return yield* new CommandFailed({
        message: "levy serve answered something else than a command's output"
      })
    }
    for (const line of reply.stdout) yield* Console.log(line)
    if (reply.failure !== undefined) {
      const { tag, message } = reply.failure
      return yield* tag === "UsageError"
        ? Effect.fail(new UsageError({ message }))
        : Effect.fail(new CommandFailed({ message }))
    }
  })

/** The server's reply to `command`; none when no server listens on the socket. */
const send = (dataDir: string, command: Command) =>
  Effect.async<Option.Option<Reply>, CommandFailed>((resume) => {
    const path = join(dataDir, FILE)
    let problem: string | undefined
    try {
      problem = unsafeSocket(path) ?? unsafeDirectory(dataDir)
    } catch {
      return resume(Effect.succeed(Option.none())) // no socket: no server to send it to
    }
    if (problem !== undefined) {
      return resume(
        Effect.fail(
          new CommandFailed({ message: `not sending the command to ${path}: ${problem}` })
        )
      )
    }
    const request = Http.request(
      // One connection for the one request: nothing kept alive to hold this process open.
      { socketPath: path, method: "POST", path: "/commands", agent: false },
      (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          try {
            resume(Effect.succeed(Option.some(JSON.parse(Buffer.concat(chunks).toString()))))
          } catch {
            resume(Effect.fail(new CommandFailed({ message: `unreadable answer from ${path}` })))
          }
        })
      }
    )
    request.on("error", (e: NodeJS.ErrnoException) =>
      resume(
        e.code === "ECONNREFUSED" || e.code === "ENOENT"
          ? Effect.succeed(Option.none())
          : Effect.fail(new CommandFailed({ message: `${path}: ${e.message}` }))
      )
    )
    request.setHeader("content-type", "application/json")
    request.end(JSON.stringify({ version, command }))
  })

// ---------------------------------------------------------------------------------------
// The serving side: `levy serve` on the embedded store.

/** The largest request read from the socket (a command line's worth, with credentials). */
const MAX_BODY = 1 << 20

/**
 * The socket for as long as the server runs, on the embedded store only (PostgreSQL takes
 * several processes; a memory store is no one else's). A directory others could write keeps
 * it closed, said at start; the server runs without it.
 */
export const layer = (
  options: Store.Options,
  run: Runner
): Layer.Layer<never, never, Store.Services> =>
  options.store === "embedded" ? Layer.scopedDiscard(open(options, run)) : Layer.empty

const open = (options: Store.Options, run: Runner) =>
  Effect.gen(function* () {
    const dir = options.dataDir
    const path = join(dir, FILE)
    const refused = yield* Effect.try(() => unsafeDirectory(dir) ?? removeStale(path)).pipe(
      Effect.catchAll((e) => Effect.succeed(String(e.cause ?? e)))
    )
    if (refused !== undefined) {
      yield* Effect.logWarning("administration socket not opened").pipe(
        Effect.annotateLogs({ reason: refused })
      )
      return yield* Console.log(
        `Administration socket not opened: ${refused}. levy commands on ${dir} cannot run while this server does.`
      )
    }
    const runtime = yield* Effect.runtime<Store.Services>()
    const answer = answering(options, run, runtime)
    const server = Http.createServer((request, response) => {
      readBody(request)
        .then(answer, () => ({
          stdout: [],
          failure: { tag: "UsageError" as const, message: "the request is too large" }
        }))
        .then((reply) => {
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify(reply))
        })
    })
    const listening = yield* Effect.either(
      Effect.acquireRelease(listen(server, path), () => close(server, path))
    )
    if (listening._tag === "Left") {
      yield* Effect.logWarning("administration socket not opened").pipe(
        Effect.annotateLogs({ reason: listening.left.message })
      )
      return yield* Console.log(
        `Administration socket not opened: ${listening.left.message}. levy commands on ${dir} cannot run while this server does.`
      )
    }
    yield* Console.log(`levy commands on ${dir} run in this server, through ${path} (owner only).`)
  })

/**
 * Removes the socket a server that died left (this process holds the store's lock, so no
 * other server can be listening on it); anything else there is refused, not removed.
 */
const removeStale = (path: string): string | undefined => {
  try {
    if (!lstatSync(path).isSocket()) return `${path} exists and is not a socket`
  } catch {
    return undefined
  }
  rmSync(path, { force: true })
  return undefined
}

/**
 * Listens on `path` created owner-only: the umask makes it 0600 from the start (bind happens
 * within `listen`), the chmod makes sure of it.
 */
const listen = (server: Http.Server, path: string) =>
  Effect.async<void, Error>((resume) => {
    server.once("error", (e) => resume(Effect.fail(e)))
    const umask = process.umask(0o177)
    try {
      server.listen(path, () => {
        chmodSync(path, 0o600)
        resume(Effect.void)
      })
    } finally {
      process.umask(umask)
    }
  })

const close = (server: Http.Server, path: string) =>
  Effect.async<void>((resume) => {
    server.close(() => resume(Effect.void))
    server.closeAllConnections()
  }).pipe(Effect.ensuring(Effect.sync(() => rmSync(path, { force: true }))))

const readBody = (request: Http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        reject(new Error("too large"))
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString()))
    request.on("error", reject)
  })

const usage = (message: string): Reply => ({ stdout: [], failure: { tag: "UsageError", message } })

/** Runs one request's command on the server's store, its output collected. */
const answering =
  (options: Store.Options, run: Runner, runtime: Runtime.Runtime<Store.Services>) =>
  async (body: string): Promise<Reply> => {
    let request: { version?: unknown; command?: Command }
    try {
      request = JSON.parse(body)
    } catch {
      return usage("the request is not JSON")
    }
    if (request?.version !== version) {
      return {
        stdout: [],
        failure: {
          tag: "CommandFailed",
          message: `levy serve runs Levy ${version}, this levy command ${String(request?.version)}: run the same version`
        }
      }
    }
    const command = request.command
    if (typeof command !== "object" || command === null || storeOf(command) === undefined) {
      return usage("not a command levy serve runs for its data directory")
    }
    const stdout: Array<string> = []
    const exit = await Runtime.runPromiseExit(runtime)(
      Effect.gen(function* () {
        yield* Effect.logInfo("administration command").pipe(
          Effect.annotateLogs({ command: command._tag })
        )
        const console = yield* Effect.console
        const capturing = {
          ...console,
          log: (...args: ReadonlyArray<unknown>) => Effect.sync(() => stdout.push(format(...args)))
        }
        const context = yield* Effect.context<Store.Services>()
        yield* run(onStore(command, options)).pipe(
          Store.runningOn(context),
          Effect.withConsole(capturing),
          Effect.tapDefect((defect) => Effect.logError("administration command failed", defect))
        )
      })
    )
    return Exit.isSuccess(exit) ? { stdout } : { stdout, failure: failureOf(exit.cause) }
  }

/** A failure as the sender exits with it: its own words, 2 for the command line, 1 else. */
const failureOf = (cause: Cause.Cause<unknown>): NonNullable<Reply["failure"]> => {
  const error = Option.getOrUndefined(Cause.failureOption(cause))
  if (error instanceof UsageError) return { tag: "UsageError", message: error.message }
  if (error instanceof CommandFailed) return { tag: "CommandFailed", message: error.message }
  if (Failure.isStorageError(error)) {
    return { tag: "CommandFailed", message: Failure.describe(error).replace(/^levy: /, "") }
  }
  return {
    tag: "CommandFailed",
    message:
      error instanceof Error ? error.message : "levy serve could not run it (its log says why)"
  }
}
