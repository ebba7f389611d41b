/**
 * Applies HeapGrowth.ts when imported: the first import of `levy`'s entry (main.ts), so that
 * it runs before the other modules load; the collection V8 makes while they do sets the limit
 * the server starts with. Listed in package.json's `sideEffects`.
 */
import * as HeapGrowth from "./HeapGrowth.js"

HeapGrowth.apply()
