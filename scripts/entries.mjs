// Every process and command of the shop: its TypeScript entry, compiled to dist/<name>.mjs for
// production (build-bundle.mjs), run from source in development (run-ts.mjs).
export const ENTRIES = {
  // the web process: express, Payload, Next for /cms
  web: 'cms/src/server/main.ts',
  // the payment worker
  worker: 'payment-worker/src/main.ts',
  // the worker container's healthcheck: its last pass (or standby check) is recent
  'worker-healthcheck': 'payment-worker/src/healthcheck.ts',
  // `npm run create-admin`
  'create-admin': 'cms/src/cli/create-admin.ts',
  // `npm run db:copy`: a SQLite shop's rows into an empty PostgreSQL database
  'db-copy': 'cms/src/cli/db-copy.ts',
  // the test-mode chain (the production bundle's tests use it as WOC_API_URL)
  'chain-simulator': 'payment-worker/src/chain-simulator.ts',
}
