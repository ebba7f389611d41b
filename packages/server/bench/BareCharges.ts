/**
 * The bare baseline of `POST /v1/charges` (http.bench.ts): node:http and `pg`, no Effect, no
 * HttpApi, doing by hand what Levy's charge path does per request, statement for statement
 * (the shapes copied from a `log_statement = all` trace of one Levy charge):
 *
 * 1. claim the Idempotency-Key (`INSERT … ON CONFLICT … DO UPDATE … WHERE expired RETURNING 1`);
 * 2. look for a charge already made under the key;
 * 3. read the fee configuration (none stored: the default schedule and ruleset);
 * 4. quote the fee with the engine, and ask the simulator for the card;
 * 5. write the charge `pending` (`RETURNING *`);
 * 6. collect through the simulator;
 * 7. settle in one transaction: the charge, its `charge.succeeded` event and the stored
 *    response for the key.
 *
 * Only the happy path is written: the benchmark sends fresh keys and valid bodies, and the
 * load generator fails the run on any non-2xx answer.
 */
import { createHash, randomBytes } from "node:crypto"
import { createServer } from "node:http"
import { createRequire } from "node:module"
import type { AddressInfo } from "node:net"
import { Estimate as EstimateWire } from "@levy/api"
import { Estimate, FeeSchedule, Ruleset } from "@levy/core"
import * as Simulator from "@levy/engine/processors/simulator/Simulator.js"
import { Effect } from "effect"

/** The part of `pg` used here (the package ships no types). */
interface Client {
  query(text: string, values?: ReadonlyArray<unknown>): Promise<{ rows: Array<unknown> }>
  release(): void
}
interface Pool {
  query(text: string, values?: ReadonlyArray<unknown>): Promise<{ rows: Array<unknown> }>
  connect(): Promise<Client>
  on(event: "error", listener: (error: Error) => void): void
}
const { Pool } = createRequire(import.meta.url)("pg") as {
  Pool: new (options: { connectionString: string; max: number }) => Pool
}

const TTL_MS = 24 * 60 * 60 * 1000
const CLAIM_LEASE_MS = 30_000
const LEASE_MS = 60_000

const CLAIM = `INSERT INTO idempotency_records
    (account_id, livemode, key, fingerprint, state, created_ms, expires_at_ms)
  VALUES ($1, $2, $3, $4, 'in_progress', $5, $6)
  ON CONFLICT (account_id, livemode, key) DO UPDATE
    SET fingerprint = EXCLUDED.fingerprint, state = 'in_progress', response_status = NULL,
        response_body = NULL, created_ms = EXCLUDED.created_ms, expires_at_ms = EXCLUDED.expires_at_ms
    WHERE idempotency_records.expires_at_ms <= $7
      OR (idempotency_records.state = 'in_progress' AND idempotency_records.created_ms <= $8)
  RETURNING 1`
const BY_KEY = `SELECT * FROM charges WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3`
const FEE_CONFIG = `SELECT * FROM fee_configs WHERE account_id = $1 AND livemode = $2`
const BEGIN_CHARGE = `INSERT INTO charges (account_id, id, livemode, created, amount, convenience_fee,
    total_amount, currency, status, customer, description, metadata, region, card_type, fee_breakdown,
    compliance, failure_code, failure_message, details, processor, processor_key, idempotency_key,
    request_fingerprint, processor_reference, recover_after)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
    $21, $22, $23, $24, $25)
  RETURNING *`
const SETTLE_CHARGE = `UPDATE charges SET status = $1, failure_code = failure_code,
    failure_message = failure_message, details = $2::jsonb, processor_reference = $3, recover_after = NULL
  WHERE account_id = $4 AND livemode = $5 AND id = $6 AND status = 'pending'
  RETURNING *`
const INSERT_EVENT = `INSERT INTO events (account_id, id, livemode, type, data, request, created)
  VALUES ($1, $2, $3, $4, $5, $6, $7)`
const STORE_RESPONSE = `INSERT INTO idempotency_records (account_id, livemode, key, fingerprint, state,
    response_status, response_body, created_ms, expires_at_ms)
  VALUES ($1, $2, $3, $4, 'done', $5, $6, $7, $8)
  ON CONFLICT (account_id, livemode, key) DO UPDATE
    SET state = 'done', response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body
    WHERE idempotency_records.fingerprint = EXCLUDED.fingerprint`

/** An id like Levy's (`ch_` + 24 characters), random. */
const idOf = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`

const fail = (res: import("node:http").ServerResponse, status: number, code: string) =>
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ error: { type: "invalid_request_error", code } }))

/** Serves the bare charges endpoint on an ephemeral loopback port over the database at `url`. */
export const serve = (
  url: string,
  accountId: string,
  secret: string
): Promise<{ readonly port: number; readonly close: () => Promise<void> }> => {
  const pool = new Pool({ connectionString: url, max: 20 })
  // An idle connection ended by the server (the throwaway database dropped at exit) is no error.
  pool.on("error", () => undefined)
  const simulator = Simulator.make()

  const charge = async (key: string, text: string) => {
    const input = JSON.parse(text) as { amount: number; currency: string; region: string }
    const fingerprint = createHash("sha256").update(`POST /v1/charges\n${text}`).digest("hex")
    const now = Date.now()
    const claimed = await pool.query(CLAIM, [
      accountId,
      false,
      key,
      fingerprint,
      now,
      now + TTL_MS,
      now,
      now - CLAIM_LEASE_MS
    ])
    if (claimed.rows.length !== 1) return undefined
    const found = await pool.query(BY_KEY, [accountId, false, key])
    if (found.rows.length !== 0) return undefined
    await pool.query(FEE_CONFIG, [accountId, false])
    const source = Simulator.DEFAULT_SOURCE
    const card = Effect.runSync(simulator.describe(source))
    const quoted = Estimate.estimate(FeeSchedule.DEFAULT, Ruleset.DEFAULT, {
      ...input,
      cardType: card.funding === "unknown" ? undefined : card.funding,
      cardNetwork: card.network ?? undefined
    } as Parameters<typeof Estimate.estimate>[2])
    if (quoted._tag === "Left") return undefined
    const quote = EstimateWire.fromEngine(quoted.right)
    const id = idOf("ch")
    const created = Math.floor(now / 1000)
    const details = {
      source,
      adjustment: quote.adjustment,
      configured: quote.configured,
      billingMode: "direct",
      feeStructure: quote.feeStructure
    }
    await pool.query(BEGIN_CHARGE, [
      accountId,
      id,
      false,
      created,
      quote.baseAmount,
      quote.convenienceFee,
      quote.totalAmount,
      quote.currency,
      "pending",
      null,
      null,
      "{}",
      quote.region,
      card.funding,
      JSON.stringify(quote.feeBreakdown),
      JSON.stringify(quote.compliance),
      null,
      null,
      JSON.stringify(details),
      simulator.name,
      `levy_${id}`,
      key,
      fingerprint,
      null,
      now + LEASE_MS
    ])
    const outcome = Effect.runSync(
      simulator.charge({
        idempotencyKey: `levy_${id}`,
        source,
        amount: quote.totalAmount,
        currency: quote.currency,
        fee: quote.convenienceFee,
        metadata: { levy_charge: id, levy_account: accountId }
      })
    )
    if (outcome._tag !== "Succeeded") return undefined
    const transactions = [
      { part: "amount", amount: quote.totalAmount, reference: outcome.reference }
    ]
    const body = JSON.stringify({
      id,
      object: "charge",
      amount: quote.baseAmount,
      convenienceFee: quote.convenienceFee,
      totalAmount: quote.totalAmount,
      currency: quote.currency,
      status: "succeeded",
      region: quote.region,
      created,
      livemode: false,
      metadata: {},
      cardType: card.funding,
      amountRefunded: 0,
      refunded: false,
      billingMode: "direct",
      feeStructure: quote.feeStructure,
      feeBreakdown: quote.feeBreakdown,
      adjustment: quote.adjustment,
      compliance: quote.compliance,
      configured: quote.configured,
      transactions
    })
    const client = await pool.connect()
    try {
      await client.query("BEGIN")
      await client.query(SETTLE_CHARGE, [
        "succeeded",
        JSON.stringify({ ...details, transactions }),
        outcome.reference,
        accountId,
        false,
        id
      ])
      await client.query(INSERT_EVENT, [
        accountId,
        idOf("evt"),
        false,
        "charge.succeeded",
        `{"object":${body}}`,
        JSON.stringify({ idempotencyKey: key }),
        created
      ])
      await client.query(STORE_RESPONSE, [
        accountId,
        false,
        key,
        fingerprint,
        200,
        body,
        now,
        now + TTL_MS
      ])
      await client.query("COMMIT")
    } catch (error) {
      await client.query("ROLLBACK")
      throw error
    } finally {
      client.release()
    }
    return body
  }

  const server = createServer((req, res) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => {
      text += chunk
    })
    req.on("end", () => {
      const key = req.headers["idempotency-key"]
      if (req.headers.authorization !== `Bearer ${secret}`) return fail(res, 401, "unauthorized")
      if (typeof key !== "string") return fail(res, 400, "idempotency_key_missing")
      charge(key, text).then(
        (body) =>
          body === undefined
            ? fail(res, 409, "not_the_happy_path")
            : res.writeHead(200, { "content-type": "application/json" }).end(body),
        () => fail(res, 503, "storage")
      )
    })
  })
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => server.close(() => done())).then(() =>
            (pool as unknown as { end: () => Promise<void> }).end()
          )
      })
    )
  )
}
