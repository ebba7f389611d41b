/**
 * docs/client.md stays runnable: each ```ts block runs, in order, against one real server,
 * after the setup block (with `levy`, `apiKey` and `baseUrl` bound to that server), and what
 * it prints is what the page says it prints.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startFakeStripe } from "../../server/src/fakes/FakeStripe.js"
import { Levy } from "../src/index.js"
import { SECRET, start, WINDOW } from "./support.js"

const here = dirname(fileURLToPath(import.meta.url))
const page = readFileSync(resolve(here, "../../../docs/client.md"), "utf8")
const generated = resolve(here, "../build/docs-snippets")
const clientEntry = resolve(here, "../src/index.ts")

interface Snippet {
  readonly heading: string
  readonly code: string
}

/** The ```ts blocks under each `## heading`, and the setup block. */
const snippets = (): { setup: string; blocks: ReadonlyArray<Snippet> } => {
  let heading = ""
  let setup = ""
  const blocks: Array<Snippet> = []
  for (const match of page.matchAll(/^## (.+)$|^```ts( setup)?\n([\s\S]*?)^```$/gm)) {
    if (match[1] !== undefined) heading = match[1]
    else if (match[2] !== undefined) setup = match[3] ?? ""
    else blocks.push({ heading, code: match[3] ?? "" })
  }
  return { setup, blocks }
}

/** A module running `code` with the setup's imports, `levy`, `apiKey` and `baseUrl` given. */
const moduleOf = (setup: string, code: string): string => {
  const lines = `${setup}\n${code}`.split("\n")
  const isImport = (l: string) => l.startsWith("import ")
  const imports = lines
    .filter(isImport)
    .map((l) => l.replace(/"@levy\/client"/, JSON.stringify(pathToFileURL(clientEntry).href)))
  const body = code.split("\n").filter((l) => !isImport(l))
  return [...imports, "export default async ({ levy, apiKey, baseUrl }) => {", ...body, "}"].join(
    "\n"
  )
}

/** What each section prints, in order (only the sections that print). */
const printed: Record<string, ReadonlyArray<ReadonlyArray<unknown>>> = {
  Estimates: [
    [200, 10200, true],
    [320, "percentage_over_limit"]
  ],
  "Quotes for the shopper's card": [
    [0, "debit"],
    [0, true]
  ],
  Charges: [["succeeded", 1, false], [{ orderId: "1001", shipping: "express" }]],
  Refunds: [[80, 1, "77"]],
  Disputes: [["needs_response", 5175]],
  "Webhook endpoints": [
    [expect.stringMatching(/^whsec_dev_/)],
    [true, "list", true, "http://127.0.0.1:8787/webhooks"]
  ],
  "Fee configuration": [[2.9, true, 2.5]],
  "Ruleset versions": [["1.0.0", false, 80], ["1.0.0"]],
  Events: [["charge.succeeded", true]],
  Pagination: [[true, true]],
  "Retries and idempotency": [[true]],
  "The Effect client": [[[320, "CardError"]]],
  "Payment processor": [["sk_test_…4242", "/v1/processor-webhooks/acct_1/test/stripe"], ["stripe"]]
}

describe("docs/client.md", () => {
  let server: Awaited<ReturnType<typeof start>>
  // The page's Stripe is the local fake; its snippet reads the credentials from the environment.
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>
  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: "sk_test_docsFake0123456789abcd4242" })
    process.env.STRIPE_SECRET_KEY = stripe.secretKey
    process.env.STRIPE_WEBHOOK_SECRET = "whsec_docs0123456789abcdefghij"
    server = await start({
      edge: { test: 10_000, window: WINDOW },
      processorApiBaseUrls: { stripe: stripe.url }
    })
    mkdirSync(generated, { recursive: true })
  })
  afterAll(async () => {
    await server.close()
    await stripe.close()
    delete process.env.STRIPE_SECRET_KEY
    delete process.env.STRIPE_WEBHOOK_SECRET
  })

  const { setup, blocks } = snippets()

  it("has a setup block and a snippet for every resource", () => {
    expect(setup).toContain("new Levy(")
    const headings = blocks.map((b) => b.heading)
    for (const resource of [
      "Estimates",
      "Charges",
      "Refunds",
      "Disputes",
      "Fee configuration",
      "Regions and compliance",
      "Events",
      "Webhook endpoints",
      "Payment processor"
    ]) {
      expect(headings).toContain(resource)
    }
  })

  it.each(blocks.map((b, i) => [b.heading, i] as const))("%s runs", async (heading, i) => {
    const file = join(generated, `snippet${i}.ts`)
    writeFileSync(file, moduleOf(setup, blocks[i]?.code ?? ""))
    const logs: Array<ReadonlyArray<unknown>> = []
    const original = console.log
    console.log = (...args: Array<unknown>) => {
      logs.push(args)
    }
    try {
      const run = (await import(pathToFileURL(file).href)) as {
        default: (bindings: { levy: Levy; apiKey: string; baseUrl: string }) => Promise<void>
      }
      await run.default({
        levy: new Levy(SECRET, { baseUrl: server.url }),
        apiKey: SECRET,
        baseUrl: server.url
      })
    } finally {
      console.log = original
    }
    const expected = printed[heading]
    if (expected !== undefined) expect(logs.slice(0, expected.length)).toEqual(expected)
    if (heading === "Errors") {
      expect(logs[0]?.[0]).toBe("card_declined")
      expect(logs[0]?.[2]).toMatch(/^ch_/)
      expect(logs[0]?.[3]).toMatch(/^req_/)
      expect(logs[1]).toEqual([true, true, 404])
    }
    if (heading === "Regions and compliance") {
      expect(logs.slice(0, 2)).toEqual([
        [2, true],
        [false, "fees_prohibited"]
      ])
      const codes = logs.slice(2).map(([code]) => code)
      expect(codes.slice(0, 3)).toEqual(["CA", "CA-AB", "CA-BC"])
      expect(codes.length).toBeGreaterThan(5)
    }
  })
})
