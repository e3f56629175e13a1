import react from '@vitejs/plugin-react'
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import { defineConfig } from 'vite'
import type { Plugin } from 'vite'

/**
 * Where `npm run dev` proxies the API: the web process, on the PORT it was started with (the
 * same setting the shop reads; 3000 when unset).
 */
export function devProxyTarget(env: Record<string, string | undefined> = process.env): string {
  return `http://localhost:${env.PORT || 3000}`
}

const target = devProxyTarget()

/**
 * Each built script, stylesheet and SVG over 1 KB is written beside its brotli copy at the
 * highest quality (`<file>.br`), which the web process sends to browsers that accept it
 * (cms/src/server/precompressed.ts). Compressing on every request stays at a fast level: the
 * entry is 80 KB that way and 69 KB at quality 11, which puts a shopper's page under 80 KB of
 * JavaScript.
 */
export function precompress(): Plugin {
  return {
    name: 'shop:precompress',
    apply: (_config, { command, isSsrBuild }) => command === 'build' && !isSsrBuild,
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist'
      for (const name of Object.keys(bundle).filter((file) => /\.(js|css|svg)$/.test(file))) {
        const file = path.join(dir, name)
        const data = await fs.readFile(file)
        if (data.length < 1024) continue
        const params = {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        }
        await fs.writeFile(`${file}.br`, zlib.brotliCompressSync(data, { params }))
      }
    },
  }
}

// The storefront is served by the web process from dist/; in dev Vite proxies the server.
// `vite build --ssr src/entry-server.tsx --outDir dist-server` builds the renderer the web
// process draws the first screens with (no public files: it is never served).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), precompress()],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // react-toastify's main build carries its stylesheet as a JS string and injects it at run
      // time (3 KB gz of JS). The screens that toast import ReactToastify.css instead, so the
      // build uses the same library without the copy. Every `from 'react-toastify'` resolves
      // here, so all toasts share one store.
      { find: /^react-toastify$/, replacement: 'react-toastify/unstyled' },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // dist/.vite/manifest.json: which files draw each screen, so the web process can name the
    // first screen's files in the page it serves (cms/src/server/storefrontPage.ts).
    manifest: !isSsrBuild,
    copyPublicDir: !isSsrBuild,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': target,
      '/media': target,
      '/documents': target,
      '/download': target,
    },
  },
}))
