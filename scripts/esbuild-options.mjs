// How the shop's TypeScript becomes JavaScript, for the production bundle (build-bundle.mjs) and
// for development runs (run-ts.mjs): the entry and the shop's own workspaces are bundled into one
// ES module; packages stay external and load through Node's own loader from node_modules.
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

/** The production bundle's build: every entry of entries.mjs into `outdir` (dist/). */
export function bundleOptions(outdir) {
  return {
    ...esbuildOptions,
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, entry]) => [name, path.join(root, entry)]),
    ),
    outdir,
    outExtension: { '.js': '.mjs' },
    // What an entry imports on demand (React Email, an unused database engine, the S3 SDK) stays
    // out of its start: shared and on-demand code go to chunks (dist/chunks/), loaded when first
    // imported (issue 18: they took about a second of every production start).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
  }
}
