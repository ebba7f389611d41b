/** The workspace's published packages: every packages/<dir> whose package.json is not private. */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

export interface Published {
  readonly name: string
  readonly version: string
  readonly dir: string
}

export const published = (root: string): ReadonlyArray<Published> =>
  readdirSync(join(root, "packages")).flatMap((entry) => {
    const dir = join(root, "packages", entry)
    const path = join(dir, "package.json")
    if (!existsSync(path)) return []
    const manifest = JSON.parse(readFileSync(path, "utf8")) as {
      name: string
      version: string
      private?: boolean
    }
    return manifest.private === true
      ? []
      : [{ name: manifest.name, version: manifest.version, dir }]
  })
