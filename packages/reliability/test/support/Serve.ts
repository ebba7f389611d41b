/**
 * `levy serve --store postgres` as a child process (the real executable, killed for real), on
 * 127.0.0.1 with an ephemeral port, its development account's keys read from dev-account.postgres.json.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathFor } from "../../../../scripts/levyBinary.js"

const ROOT = resolve(import.meta.dirname, "../../../..")
const BINARY = pathFor("reliability")

/** The dispatcher's schedule in milliseconds, so deliveries and retries happen within a test. */
export const FAST_WEBHOOKS: Record<string, string> = {
  LEVY_WEBHOOK_POLL_MS: "50",
  LEVY_WEBHOOK_LEASE_MS: "2000",
  LEVY_WEBHOOK_TIMEOUT_MS: "1000",
  LEVY_WEBHOOK_RETRY_INITIAL_MS: "50",
  LEVY_WEBHOOK_RETRY_MAX_MS: "300"
}

export interface Serving {
  readonly child: ChildProcess
  readonly url: string
  readonly exited: Promise<number | null>
  output: () => string
  /** SIGKILL: no shutdown hook runs, in-flight requests are cut. */
  kill: () => Promise<void>
  /** SIGTERM, then waits for the exit. */
  stop: () => Promise<void>
}

export interface DevKeys {
  readonly accountId: string
  readonly keys: {
    readonly secretDev: string
    readonly publishableDev: string
    readonly secretProd: string
    readonly publishableProd: string
  }
}

/** Starts `levy serve` on `databaseUrl`; resolves once it listens. */
export const serve = async (options: {
  readonly databaseUrl: string
  readonly dataDir: string
  readonly env?: Record<string, string>
  /**
   * Run for development (default true): the development account on the empty database, and
   * webhooks to the harness's receivers on this machine. False: as in production.
   */
  readonly dev?: boolean
}): Promise<Serving> => {
  const child = spawn(
    process.execPath,
    [BINARY, "serve", "--port", "0", "--host", "127.0.0.1", "--store", "postgres"].concat(
      ["--data-dir", options.dataDir],
      options.dev === false ? [] : ["--dev"]
    ),
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: "",
        REDIS_URL: "",
        LEVY_API_KEY: "",
        ...FAST_WEBHOOKS,
        // The load of a scenario is not what the rate limit is for (scenario 3 sets its own).
        LEVY_RATE_LIMIT_TEST: "100000",
        LEVY_RATE_LIMIT_LIVE: "100000",
        LEVY_RATE_LIMIT_ANONYMOUS: "100000",
        LEVY_RATE_LIMIT_FEE_CONFIG_WRITES: "100000",
        ...options.env,
        DATABASE_URL: options.databaseUrl
      },
      stdio: ["ignore", "pipe", "pipe"]
    }
  )
  let out = ""
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString()
  })
  child.stderr?.on("data", (c: Buffer) => {
    out += c.toString()
  })
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
  const deadline = Date.now() + 30_000
  let match: RegExpExecArray | null = null
  while (match === null) {
    match = /Levy is listening on http:\/\/[^:]+:(\d+)/.exec(out)
    if (match !== null) break
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`levy serve did not start:\n${out}`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    child,
    url: `http://127.0.0.1:${match[1]}`,
    exited,
    output: () => out,
    kill: async () => {
      if (child.exitCode === null) child.kill("SIGKILL")
      await exited
    },
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM")
      await exited
    }
  }
}

/** The development account `serve --store postgres` created on its first start. */
export const devKeys = (dataDir: string): DevKeys =>
  JSON.parse(readFileSync(join(dataDir, "dev-account.postgres.json"), "utf8")) as DevKeys
