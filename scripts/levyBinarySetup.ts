/** vitest `globalSetup` of the projects that start `levy` processes: the bundle, built once per run (levyBinary.ts). */
import type { TestProject } from "vitest/node"
import { build } from "./levyBinary.js"

export default async (project: TestProject): Promise<void> => {
  await build(project.name)
}
