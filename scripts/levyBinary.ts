/**
 * The `levy` executable the tests start, bundled from packages/server/src/main.ts by esbuild
 * (the compiler tsx uses too) once per test run, its dependencies with it. A process started
 * from it spends about a third of the CPU one started under `tsx` does, whose loader thread
 * works as hard as the process itself, and the tests start about fifty
 * (docs/development.md "Test time"). Node 20 has no compile cache, so every process resolves,
 * reads and compiles each module it imports again: with the dependencies as files that was
 * about 1,400 of them (effect alone 364, fast-check 225 through effect's index) and half the
 * CPU of `levy --version`; bundled, esbuild keeps only what Levy uses.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import * as esbuild from "esbuild"

const ROOT = resolve(import.meta.dirname, "..")

/** Where the bundle of `project`'s test run is written. */
export const pathFor = (project: string): string =>
  join(ROOT, "node_modules", ".cache", "levy-test", `${project}.mjs`)

/**
 * Packages that stay files in node_modules, imported from where esbuild resolves them: PGlite
 * reads its WebAssembly and data files beside its own module, and the processor SDKs are
 * loaded only when a processor is used (docs/performance.md "Start-up").
 */
const EXTERNAL = /^(@electric-sql\/|stripe$|@adyen\/)/

const dependenciesExternal: esbuild.Plugin = {
  name: "dependencies-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      const inner = (args.pluginData as { inner?: boolean } | undefined)?.inner === true
      if (inner || !EXTERNAL.test(args.path)) return
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
    build.onLoad({ filter: /\/packages\/[^/]+\/(src|bench)\/.*\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, "utf8")).replaceAll(
        "import.meta.url",
        JSON.stringify(pathToFileURL(args.path).href)
      ),
      loader: "ts"
    }))
  }
}

/**
 * A JSON module is read and parsed when the bundle starts, as Node does for a JSON module of
 * the built packages, rather than written into the bundle as one object literal: V8 keeps a
 * script's text for its whole life and compiles its top level in one go, so the ruleset's
 * released versions (7 MB of JSON) as code cost their text, their parse and their literals'
 * boilerplate on top of the objects (docs/performance.md "Memory").
 */
const jsonRead: esbuild.Plugin = {
  name: "json-read",
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, (args) => ({
      contents: `import { readFileSync } from "node:fs"; export default JSON.parse(readFileSync(${JSON.stringify(args.path)}, "utf8"))`,
      loader: "js"
    }))
  }
}

/** Bundles the CLI to `pathFor(project)`. */
export const build = (project: string): Promise<string> =>
  bundle(join(ROOT, "packages/server/src/main.ts"), pathFor(project))

/**
 * Every character outside ASCII as a `\u` escape. Node holds a module's source for as long as
 * it runs (V8 compiles functions lazily, from the text), and one character outside Latin-1
 * makes the whole text two bytes a character: for the bundle, 27 MB instead of 14 MB of the
 * server's heap for an em dash in a comment. esbuild already writes strings as ASCII; what it
 * leaves is comments and regular expression literals, where the escape means the same
 * character (a template literal's raw text would not, and esbuild escapes none there).
 */
export const asciiOnly = (text: string): string =>
  text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/**
 * Bundles `entry` (a TypeScript module of the workspace) to `outfile`, as the CLI is: what a
 * benchmark's servers run, so that they run as a built Levy does, not under tsx.
 */
export const bundle = async (entry: string, outfile: string): Promise<string> => {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    write: false,
    plugins: [dependenciesExternal, ownFileUrl, jsonRead],
    // The bundled CommonJS dependencies (pg, ioredis, ...) `require` Node's modules.
    banner: {
      js: 'import { createRequire as levyCreateRequire } from "node:module"; const require = levyCreateRequire(import.meta.url);'
    },
    logLevel: "warning"
  })
  const [output] = result.outputFiles
  if (output === undefined) throw new Error(`esbuild wrote no bundle of ${entry}`)
  await mkdir(dirname(outfile), { recursive: true })
  await writeFile(outfile, asciiOnly(output.text))
  return outfile
}
