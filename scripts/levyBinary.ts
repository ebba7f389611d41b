/**
 * The `levy` executable the tests start, bundled from packages/server/src/main.ts by esbuild
 * (the compiler tsx uses too) once per test run. Node loads the dependencies from node_modules
 * itself; only Levy's own TypeScript is compiled. A process started from it spends about a
 * third of the CPU one started under `tsx` does, whose loader thread works as hard as the
 * process itself, and the tests start about fifty (docs/development.md "Test time").
 */
import { readFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import * as esbuild from "esbuild"

const ROOT = resolve(import.meta.dirname, "..")

/** Where the bundle of `project`'s test run is written. */
export const pathFor = (project: string): string =>
  join(ROOT, "node_modules", ".cache", "levy-test", `${project}.mjs`)

/**
 * Levy's packages are bundled; every other package stays an import of the file esbuild
 * resolves for its importer, so Node loads the same files it would under tsx.
 */
const dependenciesExternal: esbuild.Plugin = {
  name: "dependencies-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      const inner = (args.pluginData as { inner?: boolean } | undefined)?.inner === true
      if (inner || args.path.startsWith("@levy/") || args.path.startsWith("node:")) return
      const found = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { inner: true }
      })
      return found.errors.length > 0
        ? { errors: found.errors }
        : { path: found.path, external: true }
    })
  }
}

/** A source's `import.meta.url` is its own file's, as when run from source (package.json, the dashboard). */
const ownFileUrl: esbuild.Plugin = {
  name: "own-file-url",
  setup(build) {
    build.onLoad({ filter: /\/packages\/[^/]+\/src\/.*\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, "utf8")).replaceAll(
        "import.meta.url",
        JSON.stringify(pathToFileURL(args.path).href)
      ),
      loader: "ts"
    }))
  }
}

/** Bundles the CLI to `pathFor(project)`. */
export const build = async (project: string): Promise<string> => {
  const outfile = pathFor(project)
  await esbuild.build({
    entryPoints: [join(ROOT, "packages/server/src/main.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    plugins: [dependenciesExternal, ownFileUrl],
    logLevel: "warning"
  })
  return outfile
}
