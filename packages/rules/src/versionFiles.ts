// Written by `npx -y pnpm@10 rules:snapshot` from versions/*.json. Do not edit by hand.
import r0 from "../versions/1.0.0.json" with { type: "json" }
import r1 from "../versions/1.1.0.json" with { type: "json" }
import r2 from "../versions/1.2.0.json" with { type: "json" }
import r3 from "../versions/1.3.0.json" with { type: "json" }
import r4 from "../versions/1.4.0.json" with { type: "json" }
import r5 from "../versions/2.0.0.json" with { type: "json" }
import r6 from "../versions/2.1.0.json" with { type: "json" }
import r7 from "../versions/3.0.0.json" with { type: "json" }
import r8 from "../versions/3.0.1.json" with { type: "json" }
import r9 from "../versions/3.0.2.json" with { type: "json" }
import r10 from "../versions/4.0.0.json" with { type: "json" }

/** Every released version's snapshot, as read from its file (decode before use). */
export const files: ReadonlyArray<{ readonly file: string; readonly json: unknown }> = [
  { file: "1.0.0.json", json: r0 },
  { file: "1.1.0.json", json: r1 },
  { file: "1.2.0.json", json: r2 },
  { file: "1.3.0.json", json: r3 },
  { file: "1.4.0.json", json: r4 },
  { file: "2.0.0.json", json: r5 },
  { file: "2.1.0.json", json: r6 },
  { file: "3.0.0.json", json: r7 },
  { file: "3.0.1.json", json: r8 },
  { file: "3.0.2.json", json: r9 },
  { file: "4.0.0.json", json: r10 }
]
