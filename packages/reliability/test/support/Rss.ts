/** The resident set size of a process, from /proc (Linux), in bytes. */
import { readFileSync } from "node:fs"

export const rssOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0) * 1024
}
