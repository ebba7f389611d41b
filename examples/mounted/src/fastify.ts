/**
 * A Fastify app with its own routes and Levy's `/v1` API under `/levy`. Inside its own
 * plugin scope the Levy routes take the body unparsed (Levy reads it) and hand the raw
 * node:http request, without the prefix, to Levy's listener; `reply.hijack()` tells Fastify
 * that Levy answers.
 */
import type { MountedLevy } from "@levy/server"
import Fastify from "fastify"

const PREFIX = "/levy"

export const app = (levy: MountedLevy) => {
  const app = Fastify()
  app.get("/health", async () => ({ status: "ok", framework: "fastify" }))
  app.post("/orders", async (request, reply) => reply.code(201).send({ received: request.body }))
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined))
    scope.all(`${PREFIX}/*`, (request, reply) => {
      reply.hijack()
      request.raw.url = request.raw.url?.slice(PREFIX.length) ?? "/"
      levy.listener(request.raw, reply.raw)
    })
  })
  return app
}
