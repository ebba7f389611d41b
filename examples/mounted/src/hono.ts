/**
 * A Hono app with its own routes and Levy's `/v1` API under `/levy` through the web-standard
 * handler; `mount` strips the prefix, so Levy sees `/v1/...`.
 */
import type { MountedLevy } from "@levy/server"
import { Hono } from "hono"

export const app = (levy: MountedLevy) =>
  new Hono()
    .get("/health", (c) => c.json({ status: "ok", framework: "hono" }))
    .post("/orders", async (c) => c.json({ received: await c.req.json() }, 201))
    .mount("/levy", levy.fetch)
