/**
 * The published packages as a user gets them. Every non-private package under packages/ is
 * packed (`pnpm pack`, which builds it first), and the tarballs are installed with plain npm
 * into a fresh project in the system's temporary directory, outside the workspace (their
 * dependencies come from the npm registry). Then, in that project:
 *
 * 1. a plain `.mjs` file imports @levy/core and @levy/client with `node` (no tsx) and quotes;
 * 2. a TypeScript consumer, and every package README's first example, type-check against the
 *    published declarations with `moduleResolution` node16 and bundler (libraries included);
 * 3. the client bundles for the browser with esbuild within its gzipped budget;
 * 4. the installed `levy` bin prints its version (also as `npx @levy/server`) and serves an
 *    estimate on the embedded store;
 * 5. in a second fresh project holding only @levy/engine and the Levy packages it depends on
 *    (no @levy/server, no @levy/client), a plain `.mjs` charges in-process on the memory store
 *    with `node`.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BROWSER_ENTRY, BUDGET_GZIPPED_BYTES, measure } from "../src/ClientBundle.js"
import { type Published, published } from "../src/Published.js"

const ROOT = join(import.meta.dirname, "../../..")
const FIXTURES = join(import.meta.dirname, "fixtures")
const TSC = join(ROOT, "node_modules/typescript/bin/tsc")
// The consumer's own type packages: Node's (the version the workspace uses), and pg's, which
// @effect/sql-pg's declarations (under @levy/storage's) import without depending on them.
const TYPES = ["@types/node@20.19.43", "@types/pg@8.18.0"]

/** The environment of a user's shell: none of the workspace's loaders or test settings. */
const userEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env }
  for (const name of ["NODE_OPTIONS", "VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID", "TSX"]) {
    delete env[name]
  }
  return { ...env, DATABASE_URL: "", REDIS_URL: "", PORT: "" }
}

/** Runs a command to its end (asynchronously: the test worker must keep answering vitest). */
const run = async (command: string, args: ReadonlyArray<string>, cwd: string): Promise<string> =>
  (await promisify(execFile)(command, args, { cwd, env: userEnv(), maxBuffer: 64 * 1024 * 1024 }))
    .stdout

/** The first ```ts block of a README (```ts checked: its output is checked, DocsOutputs.test). */
const firstExample = (readme: string): string | undefined =>
  /```ts(?: checked)?\n([\s\S]*?)```/.exec(readme)?.[1]

/** The file `pnpm pack` makes of a package: `levy-core-0.1.0.tgz`. */
const tarballOf = (p: Published) => `${p.name.replace("@", "").replace("/", "-")}-${p.version}.tgz`

/** `npm install` of `specs` (tarball paths, registry names) in `dir`. */
const npmInstall = (dir: string, specs: ReadonlyArray<string>) =>
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...specs], dir)

/** The manifest of a workspace package. */
const manifestOf = (p: Published) =>
  JSON.parse(readFileSync(join(p.dir, "package.json"), "utf8")) as {
    readonly dependencies?: Record<string, string>
  }

/** `name` and the published packages it depends on, directly or through another. */
const closureOf = (name: string): ReadonlyArray<Published> => {
  const found = new Map<string, Published>()
  const visit = (current: string) => {
    const p = packages.find((candidate) => candidate.name === current)
    if (p === undefined || found.has(current)) return
    found.set(current, p)
    for (const dependency of Object.keys(manifestOf(p).dependencies ?? {})) visit(dependency)
  }
  visit(name)
  return [...found.values()]
}

let work: string
let tarballs: string
let project: string
let packages: ReadonlyArray<Published>
const sizes: Record<string, number> = {}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "levy-consumer-"))
  tarballs = join(work, "tarballs")
  project = join(work, "app")
  mkdirSync(tarballs)
  mkdirSync(project)
  packages = published(ROOT)
  await run(
    "npx",
    [
      "-y",
      "pnpm@10",
      ...packages.flatMap((p) => ["--filter", p.name]),
      "-r",
      "pack",
      "--pack-destination",
      tarballs
    ],
    ROOT
  )
  const files = readdirSync(tarballs).filter((f) => f.endsWith(".tgz"))
  for (const file of files) sizes[file] = readFileSync(join(tarballs, file)).byteLength
  console.info(`packed: ${JSON.stringify(sizes)}`)
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "levy-consumer", private: true, type: "module" }, null, 2)}\n`
  )
  await npmInstall(project, [...TYPES, ...files.map((f) => join(tarballs, f))])
})

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

describe("the published packages in a fresh npm project", () => {
  it("packs every published package, each with its dist entry, declarations and CHANGELOG", () => {
    expect(Object.keys(sizes).sort()).toEqual(packages.map(tarballOf).sort())
    for (const p of packages) {
      const installed = join(project, "node_modules", p.name)
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
      const entry = manifest.exports["."]
      expect(entry.import).toMatch(/^\.\/dist\/.*\.js$/)
      expect(entry.types).toMatch(/^\.\/dist\/.*\.d\.ts$/)
      expect(readFileSync(join(installed, entry.types), "utf8")).toContain("export")
      expect(readFileSync(join(installed, "CHANGELOG.md"), "utf8")).toContain(`## ${p.version}`)
      expect(JSON.stringify(manifest.dependencies ?? {})).not.toContain("workspace:")
      // Not on the registry yet: each README says so and installs its own tarball.
      const readme = readFileSync(join(installed, "README.md"), "utf8")
      expect(readme).toMatch(new RegExp(`^# ${p.name}\\n\\nNot on the npm registry yet`))
      expect(readme).toContain(`npm install ../levy/tarballs/${tarballOf(p)}`)
    }
  })

  it("(1) plain node imports @levy/core and @levy/client from a .mjs file and quotes", async () => {
    copyFileSync(join(FIXTURES, "quote.mjs"), join(project, "quote.mjs"))
    const out = JSON.parse(await run(process.execPath, ["quote.mjs"], project))
    // 2.9 % + 0.30 is over the networks' 3 % in US-FL: quoted as a charge collects it.
    expect(out).toEqual({
      convenienceFee: 300,
      totalAmount: 10300,
      compliant: true,
      client: "function",
      verifyWebhook: "function"
    })
  })

  it.each(["node16", "bundler"])(
    "(2) a TypeScript consumer and every README example type-check with moduleResolution %s",
    async (resolution) => {
      copyFileSync(join(FIXTURES, "consumer.ts"), join(project, "consumer.ts"))
      copyFileSync(
        join(FIXTURES, `tsconfig.${resolution}.json`),
        join(project, `tsconfig.${resolution}.json`)
      )
      for (const p of packages) {
        const readme = readFileSync(join(project, "node_modules", p.name, "README.md"), "utf8")
        const example = firstExample(readme)
        expect(example, `${p.name}'s README has a ts example`).toBeDefined()
        writeFileSync(join(project, `readme-${p.name.split("/")[1]}.ts`), `${example}\nexport {}\n`)
      }
      let output = ""
      try {
        await run(process.execPath, [TSC, "-p", `tsconfig.${resolution}.json`], project)
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error)
      }
      expect(output).toBe("")
    }
  )

  it(`(3) the client bundles for the browser within ${BUDGET_GZIPPED_BYTES} bytes gzipped`, async () => {
    const size = await measure(BROWSER_ENTRY, project)
    console.info(`client bundle: ${size.minifiedBytes} B minified, ${size.gzippedBytes} B gzipped`)
    expect(size.gzippedBytes).toBeGreaterThan(0)
    expect(size.gzippedBytes).toBeLessThanOrEqual(BUDGET_GZIPPED_BYTES)
  })

  it("(4) the levy bin: --version, also through npx, and serve answers an estimate", async () => {
    const server = packages.find((p) => p.name === "@levy/server")!
    const levy = join(project, "node_modules/.bin/levy")
    expect((await run(levy, ["--version"], project)).trim()).toBe(server.version)
    expect((await run("npx", ["--no", "--", "@levy/server", "--version"], project)).trim()).toBe(
      server.version
    )

    const dataDir = join(work, "levy-data")
    const child = spawn(
      levy,
      ["serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir],
      {
        cwd: project,
        env: userEnv(),
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    try {
      const url = await listening(child)
      const account = JSON.parse(readFileSync(join(dataDir, "dev-account.json"), "utf8"))
      const response = await fetch(`${url}/v1/estimates`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${account.keys.secretDev}`,
          "content-type": "application/json"
        },
        body: JSON.stringify({
          amount: 10000,
          currency: "usd",
          region: "US-FL",
          cardType: "credit"
        })
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ convenienceFee: 300, totalAmount: 10300 })
    } finally {
      const exited = new Promise((done) => child.once("exit", done))
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
    }
  })
})

describe("@levy/engine alone in a fresh npm project", () => {
  let engineProject: string
  let installed: ReadonlyArray<Published>

  beforeAll(async () => {
    engineProject = join(work, "engine-app")
    mkdirSync(engineProject)
    writeFileSync(
      join(engineProject, "package.json"),
      `${JSON.stringify({ name: "levy-engine-consumer", private: true, type: "module" }, null, 2)}\n`
    )
    installed = closureOf("@levy/engine")
    const engine = installed.find((p) => p.name === "@levy/engine")!
    const effect = manifestOf(engine).dependencies?.effect
    await npmInstall(engineProject, [
      ...installed.map((p) => join(tarballs, tarballOf(p))),
      `effect@${effect}`
    ])
  })

  it("installs the engine with core, api, storage and rules, and nothing of the doors", () => {
    expect(installed.map((p) => p.name).sort()).toEqual([
      "@levy/api",
      "@levy/core",
      "@levy/engine",
      "@levy/rules",
      "@levy/storage"
    ])
    const present = (name: string) => existsSync(join(engineProject, "node_modules", name))
    for (const p of installed) expect(present(p.name), p.name).toBe(true)
    // The doors and their libraries: the HTTP server and CLI, the client, the CLI's parser,
    // the rate limiter's Redis client.
    for (const absent of ["@levy/server", "@levy/client", "@effect/cli", "ioredis"]) {
      expect(present(absent), absent).toBe(false)
    }
  })

  it("(5) plain node charges in-process on the memory store, 2.9 % + 0.30 added", async () => {
    copyFileSync(join(FIXTURES, "charge.mjs"), join(engineProject, "charge.mjs"))
    // 10100 × 2.9 % is 292.9: rounded half up to 293 (docs/design.md §2, the default schedule).
    const amount = 10_100
    const percentagePart = (BigInt(amount) * 29n + 500n) / 1000n
    const fee = Number(percentagePart + 30n)
    const out = await run(process.execPath, ["charge.mjs", String(amount)], engineProject)
    const charge = JSON.parse(out.trim().split("\n").at(-1) ?? "")
    console.info(`in-process charge from @levy/engine alone: ${JSON.stringify(charge)}`)
    expect(charge).toEqual({
      status: "succeeded",
      amount,
      convenienceFee: fee,
      totalAmount: amount + fee
    })
  })
})

/** The URL `levy serve` prints once it listens (fails with its output if it exits first). */
const listening = (child: ChildProcess) =>
  new Promise<string>((resolve, reject) => {
    let out = ""
    let err = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      const match = /Levy is listening on (http:\/\/\S+)/.exec(out)
      if (match?.[1] !== undefined) resolve(match[1])
    })
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString()
    })
    child.once("exit", (code) => reject(new Error(`levy serve exited ${code}:\n${out}\n${err}`)))
  })
