/**
 * The `levy` commands. `serve` builds the chosen store (SQL stores migrate on start), creates
 * the development account on an empty store, and serves `/v1` until SIGTERM/SIGINT, when the
 * runtime interrupts it and the layers close in reverse: the HTTP server stops accepting and
 * finishes in-flight requests, the webhook dispatcher stops, then the store closes. On the
 * embedded store it also runs the other commands sent to its administration socket
 * (AdminSocket.ts), which is where `run` sends them while it holds the store.
 */

import { join } from "node:path"
import * as HttpServer from "@effect/platform/HttpServer"
import type { ApiError, ProcessorConfig as ApiProcessorConfig } from "@levy/api"
import { ComplianceRules } from "@levy/core"
import * as Accounts from "@levy/engine/access/Accounts.js"
import * as DevAccount from "@levy/engine/access/DevAccount.js"
import { approveFeeChange } from "@levy/engine/feeConfigs/approveFeeChange.js"
import { cancelFeeChange } from "@levy/engine/feeConfigs/cancelFeeChange.js"
import { approveProcessorChange } from "@levy/engine/processorConfigs/approveProcessorChange.js"
import * as ProcessorConnect from "@levy/engine/processorConfigs/Connect.js"
import { cancelProcessorChange } from "@levy/engine/processorConfigs/cancelProcessorChange.js"
import { deleteProcessorConfig } from "@levy/engine/processorConfigs/deleteProcessorConfig.js"
import { retrieveProcessorConfig } from "@levy/engine/processorConfigs/retrieveProcessorConfig.js"
import { saveProcessorConfig } from "@levy/engine/processorConfigs/saveProcessorConfig.js"
import * as ProcessorApiBaseUrls from "@levy/engine/processors/ApiBaseUrls.js"
import * as Store from "@levy/engine/Store.js"
import * as DispatcherLayer from "@levy/engine/webhookDeliveries/DispatcherLayer.js"
import { LoopbackTargets } from "@levy/engine/webhookEndpoints/LoopbackTargets.js"
import { AccountRepository, Tenant } from "@levy/storage"
import { Console, Effect, Layer, Option } from "effect"
import * as ApiServices from "../ApiServices.js"
import * as EdgeConfigEnv from "../http/EdgeConfigEnv.js"
import * as RateLimitStore from "../http/RateLimitStore.js"
import { type DomainError, toApiError } from "../routes/ApiErrors.js"
import * as Server from "../Server.js"
import * as AdminSocket from "./AdminSocket.js"
import { type Command, CommandFailed, UsageError } from "./Args.js"
import * as Fake from "./Fake.js"
import * as Listen from "./Listen.js"
import * as RulesDiff from "./RulesDiff.js"
import * as ServeBanner from "./ServeBanner.js"
import * as Timeouts from "./Timeouts.js"

const serve = (command: Extract<Command, { _tag: "Serve" }>) => {
  const storage = Store.layer(command.store)
  // Only a server run for development makes an account by itself (a production store gets
  // its accounts from `levy accounts create`) and lets test-mode webhooks reach loopback.
  const devAccount = Layer.effectDiscard(
    command.dev
      ? DevAccount.ensure(command.store.dataDir, DevAccount.fileFor(command.store.store)).pipe(
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.void,
              onSome: ({ created, path }) => Console.log(DevAccount.format(created, path))
            })
          )
        )
      : Effect.logInfo("not run for development (--dev): no development account is created")
  )
  const server = ApiServices.provide(
    Layer.unwrapEffect(
      Effect.map(Timeouts.fromEnv, (timeouts) =>
        Server.layer({
          port: command.port,
          timeouts,
          ...(command.host === undefined ? {} : { host: command.host })
        })
      )
      // The development account exists before the server accepts its first request.
    ).pipe(Layer.provide(devAccount)),
    {
      rateLimiter: RateLimitStore.layerFromEnv,
      edge: EdgeConfigEnv.layer,
      dispatcher: DispatcherLayer.layerFromEnv
    }
    // The whole store, so handlers can use every repository.
  ).pipe(
    // Loopback webhook targets for the handlers and the dispatcher: development only.
    Layer.provide(Layer.succeed(LoopbackTargets, command.dev)),
    // Where the processors' APIs are, when not their own (LEVY_<PROCESSOR>_API_BASE_URL).
    Layer.provide(ProcessorApiBaseUrls.layerFromEnv),
    // levy commands on this data directory, run here on this store (the store is locked).
    Layer.merge(AdminSocket.layer(command.store, runHere)),
    Layer.provideMerge(storage)
  )
  return Effect.gen(function* () {
    const http = yield* HttpServer.HttpServer
    const address = http.address
    const url =
      address._tag === "TcpAddress"
        ? `http://${hostInUrl(command.host)}:${address.port}`
        : `unix:${address.path}`
    yield* Effect.logInfo("listening").pipe(
      Effect.annotateLogs({ url, store: command.store.store, dev: command.dev })
    )
    const { rateLimits } = yield* EdgeConfigEnv.fromEnv
    for (const line of ServeBanner.lines(command, rateLimits.test, rateLimits.window)) {
      yield* Console.log(line)
    }
    // A processor's requests going elsewhere (a proxy, `levy fake`) must not pass unnoticed.
    for (const line of ProcessorApiBaseUrls.describe(yield* ProcessorApiBaseUrls.fromEnv)) {
      yield* Console.log(line)
    }
    yield* Console.log(`Levy is listening on ${url}`)
    return yield* Effect.never
  }).pipe(
    Effect.provide(server),
    Effect.onInterrupt(() => Effect.logInfo("shutting down"))
  )
}

/** The host part of the URL the server is reached at (an IPv6 address in brackets). */
const hostInUrl = (host: string | undefined) =>
  host === undefined ? "localhost" : host.includes(":") ? `[${host}]` : host

type StoreCommand = { readonly store: Store.Options; readonly account: string | undefined }

/** The account a command is about: `--account`, else the one in dev-account.json. */
const accountOf = (command: StoreCommand) =>
  Effect.gen(function* () {
    const file = join(command.store.dataDir, DevAccount.fileFor(command.store.store))
    const devAccount = yield* Effect.sync(() => DevAccount.read(file))
    const accountId = command.account ?? devAccount?.accountId
    if (accountId === undefined) {
      return yield* new UsageError({ message: `--account is needed: no ${file} to take it from` })
    }
    return { accountId, devAccount }
  })

const noAccount = (accountId: string) => () =>
  new UsageError({ message: `no account ${accountId} in this store` })

const keysRoll = (command: Extract<Command, { _tag: "KeysRoll" }>) =>
  Effect.gen(function* () {
    const { accountId, devAccount } = yield* accountOf(command)
    const rolled = yield* Accounts.rollKey(accountId, command.kind).pipe(
      Effect.catchTag("RecordNotFound", noAccount(accountId))
    )
    // Keep dev-account.json true to the store.
    if (devAccount !== undefined && devAccount.accountId === accountId) {
      yield* Effect.sync(() =>
        DevAccount.write(
          command.store.dataDir,
          { accountId, keys: { ...devAccount.keys, [command.kind]: rolled.secret } },
          DevAccount.fileFor(command.store.store)
        )
      )
    }
    yield* Console.log(
      command.json
        ? JSON.stringify(rolled, null, 2)
        : `New ${command.kind} key for ${accountId} (shown once): ${rolled.secret}\n` +
            `Revoked: ${rolled.revoked.join(", ") || "none"}`
    )
  }).pipe(Store.provide(command.store))

const keysCreate = (command: Extract<Command, { _tag: "KeysCreate" }>) =>
  Effect.gen(function* () {
    const { accountId } = yield* accountOf(command)
    const created = yield* Accounts.createSecretKey(accountId, command.mode, command.name).pipe(
      Effect.catchTag("RecordNotFound", noAccount(accountId))
    )
    yield* Console.log(
      command.json
        ? JSON.stringify(created, null, 2)
        : `New ${command.mode}-mode secret key "${created.name}" (${created.keyId}) for ${accountId}, shown once: ${created.secret}`
    )
  }).pipe(Store.provide(command.store))

const keysList = (command: Extract<Command, { _tag: "KeysList" }>) =>
  Effect.gen(function* () {
    const { accountId } = yield* accountOf(command)
    const keys = yield* Accounts.listKeys(accountId).pipe(
      Effect.catchTag("RecordNotFound", noAccount(accountId))
    )
    const when = (t: number | null) => (t === null ? "never" : new Date(t * 1000).toISOString())
    yield* Console.log(
      command.json
        ? JSON.stringify(keys, null, 2)
        : [
            `Keys of ${accountId}:`,
            ...keys.map(
              (k) =>
                `  ${k.id}  ${k.mode} ${k.kind}  ${k.name ?? "-"}  …${k.last4}  created ${when(k.created)}  last used ${when(k.lastUsed)}${k.revoked ? "  REVOKED" : ""}`
            )
          ].join("\n")
    )
  }).pipe(Store.provide(command.store))

const keysRevoke = (command: Extract<Command, { _tag: "KeysRevoke" }>) =>
  Effect.gen(function* () {
    const { accountId } = yield* accountOf(command)
    const revoked = yield* Accounts.revokeKey(accountId, command.keyId).pipe(
      Effect.catchTag("RecordNotFound", () =>
        Effect.fail(
          new UsageError({
            message: `no key ${command.keyId} on account ${accountId} (see levy keys list)`
          })
        )
      )
    )
    yield* Console.log(
      `Revoked ${revoked.id} (${revoked.livemode ? "live" : "test"} ${revoked.kind}${revoked.name === null ? "" : ` "${revoked.name}"`}, …${revoked.last4}) of ${accountId}: it is refused from its next request.`
    )
  }).pipe(Store.provide(command.store))

/** The pending change of the account's live mode, approved or cancelled by the owner ("cli"). */
const feeConfigsResolve = (command: Extract<Command, { _tag: "FeeConfigsResolve" }>) =>
  Effect.gen(function* () {
    const { accountId } = yield* accountOf(command)
    yield* Effect.flatMap(AccountRepository, (accounts) => accounts.getAccount(accountId)).pipe(
      Effect.catchTag("RecordNotFound", noAccount(accountId))
    )
    const tenant = Tenant.make(accountId, true)
    const resolved =
      command.action === "approve"
        ? approveFeeChange(tenant, command.id ?? "", "cli")
        : cancelFeeChange(tenant, "cli")
    // Refusals in the API's words, so the CLI and the API say the same.
    const { value: config } = yield* resolved.pipe(
      Effect.catchAll(toApiError),
      Effect.mapError((e) => new UsageError({ message: e.message }))
    )
    yield* Console.log(
      `${command.action === "approve" ? "Applied" : "Cancelled"} the pending live-mode fee change of ${accountId}. ` +
        `In force: ${config.percentage}% + ${config.flatFee}.`
    )
  }).pipe(Effect.provide(ComplianceRules.Live), Store.provide(command.store))

type ProcessorsCommand = Extract<
  Command,
  { _tag: "ProcessorsSet" | "ProcessorsShow" | "ProcessorsDelete" | "ProcessorsResolve" }
>

/** The tenant a `processors` command is about: the account (which must exist) and the mode. */
const processorTenant = (command: ProcessorsCommand, live: boolean) =>
  Effect.gen(function* () {
    const { accountId } = yield* accountOf(command)
    yield* Effect.flatMap(AccountRepository, (accounts) => accounts.getAccount(accountId)).pipe(
      Effect.catchTag("RecordNotFound", noAccount(accountId))
    )
    return Tenant.make(accountId, live)
  })

const modeName = (tenant: Tenant.Tenant) => (tenant.livemode ? "live" : "test")

/** The owner on the store: a live-mode change applies at once (docs/design.md §4). */
const OWNER = { by: "cli", owner: true } as const

/**
 * A workflow's refusal in the API's words, so the CLI and the API say the same: a command that
 * cannot run as given (nothing held, a stale change) exits 2, a store or processor down 1.
 */
const refusal = (error: DomainError) =>
  Effect.mapError(toApiError(error), (e: ApiError.AnyError) =>
    e._tag === "ServiceUnavailableError"
      ? new CommandFailed({ message: e.message })
      : new UsageError({ message: e.message })
  )

/** A held change as the CLI prints it, with how to resolve it. */
const changeLines = (change: ApiProcessorConfig.ProcessorConfigChange) => [
  `  held for approval: ${change.action} ${change.processor} (${change.id}), requested ${new Date(change.requestedAt * 1000).toISOString()}${change.stale ? ", STALE: the configuration changed since; it can only be cancelled" : ""}`,
  ...Object.entries(change.credentials ?? {}).map(([name, masked]) => `    ${name}: ${masked}`),
  `  approve: levy processors approve ${change.id}   cancel: levy processors cancel`
]

/** A configuration as the CLI prints it: the API's masked object, as JSON or lines. */
const printConfig = (config: ApiProcessorConfig.ProcessorConfig, json: boolean) =>
  Console.log(
    json
      ? JSON.stringify(config, null, 2)
      : [
          `${config.processor} (${config.livemode ? "live" : "test"} mode)${config.surcharge ? ", surcharge on" : ""}`,
          ...Object.entries(config.credentials).map(([name, masked]) => `  ${name}: ${masked}`),
          `  webhook URL: https://<your Levy host>${config.webhookUrl}`,
          ...(config.pendingChange === undefined ? [] : changeLines(config.pendingChange))
        ].join("\n")
  )

/** The processors commands' services: the store, and where the processors' APIs are. */
const withProcessors =
  (command: ProcessorsCommand) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    self.pipe(Effect.provide(ProcessorApiBaseUrls.layerFromEnv), Store.provide(command.store))

/**
 * `processors set`: the same workflow as POST /v1/processor-config (the fields, then one call
 * to the processor at the server's API base URL, then saved sealed with its event), as the
 * account's owner: applied at once in live mode too.
 */
const processorsSet = (command: Extract<Command, { _tag: "ProcessorsSet" }>) =>
  Effect.gen(function* () {
    const tenant = yield* processorTenant(command, command.live)
    const { value: saved } = yield* saveProcessorConfig(
      tenant,
      {
        processor: command.processor as ApiProcessorConfig.ProcessorName,
        credentials: command.credentials,
        surcharge: command.surcharge
      },
      OWNER
    ).pipe(
      Effect.catchAll((e) => {
        switch (e._tag) {
          case "CredentialsInvalid":
            return Effect.fail(new UsageError({ message: `${e.param}: ${e.message}` }))
          case "CredentialsRefused":
          case "ProcessorUnreachable":
            return Effect.fail(new CommandFailed({ message: ProcessorConnect.explain(e) }))
          default:
            return refusal(e)
        }
      })
    )
    if (!command.json) {
      yield* Console.log(`Saved for ${tenant.accountId} in ${modeName(tenant)} mode:`)
    }
    yield* printConfig(saved, command.json)
  }).pipe(withProcessors(command))

const processorsShow = (command: Extract<Command, { _tag: "ProcessorsShow" }>) =>
  Effect.gen(function* () {
    const tenant = yield* processorTenant(command, command.live)
    const config = yield* retrieveProcessorConfig(tenant).pipe(
      Effect.catchTag("ProcessorConfigNotFound", (e) =>
        Effect.fail(
          new CommandFailed({
            message:
              e.pending === undefined
                ? `No payment processor is configured for ${tenant.accountId} in ${modeName(tenant)} mode: levy processors set <stripe|adyen> --credential NAME=VALUE…${tenant.livemode ? " --live" : ""}`
                : `No payment processor is in force for ${tenant.accountId} in ${modeName(tenant)} mode; a change to ${e.pending.action} ${e.pending.processor} (${e.pending.id}) is held for approval: levy processors approve ${e.pending.id}, or levy processors cancel.`
          })
        )
      )
    )
    yield* printConfig(config, command.json)
  }).pipe(Store.provide(command.store))

/** `processors delete`: the same workflow as DELETE /v1/processor-config, as the owner. */
const processorsDelete = (command: Extract<Command, { _tag: "ProcessorsDelete" }>) =>
  Effect.gen(function* () {
    const tenant = yield* processorTenant(command, command.live)
    const { value: removed } = yield* deleteProcessorConfig(tenant, OWNER).pipe(
      Effect.catchAll((e) =>
        e._tag === "ProcessorConfigNotFound"
          ? Effect.fail(
              new CommandFailed({
                message: `No payment processor is configured for ${tenant.accountId} in ${modeName(tenant)} mode.`
              })
            )
          : refusal(e)
      )
    )
    yield* Console.log(
      `Disconnected ${removed.processor} from ${tenant.accountId} in ${modeName(tenant)} mode.${
        tenant.livemode
          ? " Live charges are refused until a processor is connected again."
          : " Test mode uses the simulator."
      }`
    )
  }).pipe(Store.provide(command.store))

/** The change held for the account's live mode, approved or cancelled by the owner ("cli"). */
const processorsResolve = (command: Extract<Command, { _tag: "ProcessorsResolve" }>) =>
  Effect.gen(function* () {
    const tenant = yield* processorTenant(command, true)
    const resolved =
      command.action === "approve"
        ? approveProcessorChange(tenant, command.id ?? "", OWNER.by, Option.none())
        : cancelProcessorChange(tenant, Option.none())
    const { value: change } = yield* Effect.catchAll(resolved, refusal)
    yield* Console.log(
      command.action === "approve"
        ? `Applied the held live-mode change ${change.id} of ${tenant.accountId}: ${change.action === "save" ? `${change.processor} is the live processor.` : `${change.processor} is disconnected; live charges are refused until a processor is connected again.`}`
        : `Cancelled the held live-mode change ${change.id} of ${tenant.accountId} (${change.action} ${change.processor}); nothing changed.`
    )
  }).pipe(Store.provide(command.store))

/**
 * Runs one parsed command: a store command on an embedded data directory that a running
 * `levy serve` holds goes to that server through its administration socket (AdminSocket.ts).
 */
export const run = (command: Command) => AdminSocket.viaServer(command, runHere)

/** Runs one parsed command in this process. */
const runHere = (command: Command) => {
  switch (command._tag) {
    case "Serve":
      return serve(command)
    case "Migrate":
      return Effect.gen(function* () {
        const applied = yield* Store.migrate(command.store)
        yield* Console.log(
          applied.length === 0
            ? "No pending migrations."
            : applied.map(([id, name]) => `Applied migration ${id} ${name}`).join("\n")
        )
      })
    case "AccountsCreate":
      return Effect.gen(function* () {
        const created = yield* Accounts.create(command.name)
        yield* Console.log(
          command.json ? JSON.stringify(created, null, 2) : DevAccount.format(created)
        )
      }).pipe(Store.provide(command.store))
    case "KeysRoll":
      return keysRoll(command)
    case "KeysCreate":
      return keysCreate(command)
    case "KeysList":
      return keysList(command)
    case "KeysRevoke":
      return keysRevoke(command)
    case "FeeConfigsResolve":
      return feeConfigsResolve(command)
    case "ProcessorsSet":
      return processorsSet(command)
    case "ProcessorsShow":
      return processorsShow(command)
    case "ProcessorsDelete":
      return processorsDelete(command)
    case "ProcessorsResolve":
      return processorsResolve(command)
    case "Listen":
      return Listen.run(command)
    case "RulesDiff":
      return RulesDiff.run(command)
    case "Fake":
      return Fake.run(command)
    case "Help":
      return Effect.void
  }
}
