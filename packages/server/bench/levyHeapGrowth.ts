/**
 * Levy's own start-up setting of V8's heap growth (src/HeapGrowth.ts, which `levy` applies
 * before its modules load), for the benchmark's Levy servers only: the first import of
 * http.bench.ts, read in the server child before anything else loads. The bare baselines
 * run with V8's defaults. Listed in package.json's `sideEffects`.
 */
import * as HeapGrowth from "../src/HeapGrowth.js"

const LEVY_SERVERS = ["full", "fullSource", "charges"]

if (LEVY_SERVERS.includes(process.env.LEVY_BENCH_HTTP_SERVER ?? "")) HeapGrowth.apply()
