// How the shop's TypeScript becomes JavaScript, for the production bundle (build-bundle.mjs) and
// for development runs (run-ts.mjs). A development run bundles the entry and the shop's own
// workspaces into one ES module and leaves packages to Node's loader (a build in a second). The
// production bundle takes the packages in too (below), so a start reads a few files instead of
// resolving, opening and compiling some two thousand modules.
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { ENTRIES } from './entries.mjs'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const externalPackages = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@shop/') || path.isAbsolute(args.path)) return undefined
      return { path: args.path, external: true }
    })
  },
}

export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'error',
  tsconfig: path.join(root, 'cms/tsconfig.json'),
  plugins: [externalPackages],
  // Packages written as CommonJS call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __shopCreateRequire } from 'node:module'; const require = __shopCreateRequire(import.meta.url);",
  },
}

/**
 * What the production bundle leaves to node_modules: native addons (libsql, sharp), Next (it
 * loads its own build from cms/.next, on the first /cms request), pino (its transports start
 * worker threads by file name), the MongoDB driver and the S3 SDK (optional native parts; loaded
 * only when configured), drizzle-kit (db-sqlite requires it at run time for a first push),
 * iconv-lite (half a megabyte of code tables, which Node loads only when a body needs one).
 */
const PRODUCTION_EXTERNALS = [
  /^libsql($|\/)/,
  /^@libsql\//,
  /^sharp($|\/)/,
  /^@img\//,
  /^next($|\/)/,
  /^@next\//,
  /^pino($|-|\/)/,
  /^thread-stream($|\/)/,
  /^mongodb($|\/)/,
  /^mongoose($|\/)/,
  /^@aws-sdk\//,
  /^drizzle-kit($|\/)/,
  /^iconv-lite($|\/)/,
]

const productionPackages = {
  name: 'production-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || PRODUCTION_EXTERNALS.some((p) => p.test(args.path)))
        return { path: args.path, external: true }
      return undefined
    })
  },
}

/**
 * The production bundle's build: every entry of entries.mjs into `outdir` (dist/), with the
 * packages it uses: unbundled, a production start takes 2.7-3.3 s, two thirds of it Node
 * finding, reading and compiling node_modules one file at a time; bundled and minified, about
 * 1.8 s. `production` is the condition the processes run with (run-ts.mjs says why).
 */
export function bundleOptions(outdir) {
  return {
    ...esbuildOptions,
    plugins: [productionPackages],
    absWorkingDir: root,
    conditions: ['production'],
    minify: true,
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, entry]) => [name, path.join(root, entry)]),
    ),
    outdir,
    outExtension: { '.js': '.mjs' },
    // What an entry imports on demand (React Email, an unused database engine, the S3 SDK) stays
    // out of its start: shared and on-demand code go to chunks (dist/chunks/), loaded when first
    // imported (they would take about a second of every production start).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
  }
}
