/**
 * An Express app with its own routes and Levy's `/v1` API under `/levy`. Express strips the
 * mount path, so Levy sees `/v1/...`. Levy is mounted before any body parser: it reads the
 * request body itself, and a parser that ran first would have consumed it.
 */
import type { MountedLevy } from "@levy/server"
import express, { type Express } from "express"

export const app = (levy: MountedLevy): Express => {
  const app = express()
  app.use("/levy", levy.listener)
  app.get("/health", (_req, res) => {
    res.json({ status: "ok", framework: "express" })
  })
  app.post("/orders", express.json(), (req, res) => {
    res.status(201).json({ received: req.body })
  })
  return app
}
