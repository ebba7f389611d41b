/** The `levy` executable as a child process, its output collected as it comes. */
import { type ChildProcess, spawn } from "node:child_process"
import { resolve } from "node:path"
import { pathFor } from "../../../scripts/levyBinary.js"

const ROOT = resolve(import.meta.dirname, "../../..")
const BINARY = pathFor("server")

export interface Proc {
  readonly child: ChildProcess
  stdout: string
  stderr: string
  readonly exited: Promise<number | null>
}

/** Starts `levy <args>` with no DATABASE_URL, PORT, REDIS_URL or LEVY_API_KEY from the caller. */
export const levy = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Proc => {
  const child = spawn(process.execPath, [BINARY, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", PORT: "", REDIS_URL: "", LEVY_API_KEY: "", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const proc: Proc = {
    child,
    stdout: "",
    stderr: "",
    exited: new Promise((done) => child.on("exit", (code) => done(code)))
  }
  child.stdout?.on("data", (chunk: Buffer) => {
    proc.stdout += chunk.toString()
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    proc.stderr += chunk.toString()
  })
  return proc
}

/** Waits until `pattern` appears on stdout (or the process exits); returns the match. */
export const waitFor = async (
  proc: Proc,
  pattern: RegExp,
  timeoutMs = 120_000
): Promise<RegExpExecArray> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const match = pattern.exec(proc.stdout)
    if (match) return match
    if (proc.child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`no ${pattern} from levy:\n${proc.stdout}\n${proc.stderr}`)
}

/** A GET or POST to a running server with a key; the status and the parsed body. */
export const request = async (base: string, key: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
