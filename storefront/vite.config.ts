import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/**
 * Where `npm run dev` proxies the API: the web process, on the PORT it was started with (the
 * same setting the shop reads; 3000 when unset).
 */
export function devProxyTarget(env: Record<string, string | undefined> = process.env): string {
  return `http://localhost:${env.PORT || 3000}`
}

const target = devProxyTarget()

// The storefront is served by the web process from dist/; in dev Vite proxies the server.
export default defineConfig({
  plugins: [react()],
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
    manifest: true,
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
})
