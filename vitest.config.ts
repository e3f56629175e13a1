import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import type { TestSpecification } from 'vitest/node'
import { BaseSequencer } from 'vitest/node'

const storefrontSrc = fileURLToPath(new URL('./storefront/src', import.meta.url))

/**
 * The integration, worker and hardening files share their worker processes: each file in a
 * process of its own spent about 5 s of CPU importing Payload and its packages before its first
 * test. What one file could leave for the next (settings, the shop's modules, Payload's instance
 * cache) is put back by the set-up file.
 */
const sharedWorkers = {
  isolate: false,
  setupFiles: ['cms/test/support/perFileState.ts'],
  // Files that start and kill processes run beside the browser and hardening suites.
  testTimeout: 120_000,
  hookTimeout: 120_000,
}

/**
 * The payment worker's files first: Vitest orders the projects of a run by name, which left
 * them (they start processes and wait on them) for the end of the integration run, with a core
 * idle beside the last of them.
 */
class PaymentWorkerFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => (spec.project.name === 'payment-worker' ? 0 : 1)
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

/** One Vitest run, its projects; `npm test` runs them after lint, typecheck and build (scripts/test.mjs). */
export default defineConfig({
  test: {
    // Vitest's default on these 2-core machines is one file at a time; most files wait on
    // servers, chains and browsers more than they compute, so two run side by side.
    maxWorkers: 2,
    sequence: { sequencer: PaymentWorkerFirst },
    projects: [
      {
        test: {
          name: 'domain',
          include: ['domain/src/**/*.test.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        test: {
          name: 'chain',
          include: ['chain/src/**/*.test.ts', 'chain/test/**/*.test.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@': storefrontSrc } },
        test: {
          name: 'storefront',
          include: ['storefront/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          isolate: false,
          setupFiles: ['storefront/src/testing/setup.ts'],
          // A form filled key by key (user-event) beside the browser suite on 2 cores took 5 s.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'cms',
          include: ['cms/src/**/*.test.ts', 'cms/test/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          ...sharedWorkers,
        },
      },
      {
        test: {
          name: 'payment-worker',
          include: ['payment-worker/src/**/*.test.ts', 'payment-worker/test/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          ...sharedWorkers,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          // One file at a time on one shop. The set-up starts a shop per worker, so two files
          // could run side by side; measured in `npm test` on 2 cores, that saved the browser
          // files a minute and cost the unit and integration projects beside them five.
          maxWorkers: 1,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A fresh browser context's first page (the entry and a lazy chunk) can take more than
          // poll's default second on a loaded 2-core machine: each poll waits up to 5 s.
          expect: { poll: { timeout: 5_000 } },
        },
      },
      {
        test: {
          // The production bundle installed and run as the image runs it.
          name: 'production',
          include: ['production/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          // Hostile input and faults; HARDENING_* settings bound the long parts.
          name: 'hardening',
          include: ['hardening/**/*.test.ts'],
          exclude: ['hardening/load.test.ts'],
          environment: 'node',
          pool: 'forks',
          // Fault injection kills and restarts processes: one hardening file at a time.
          maxWorkers: 1,
          ...sharedWorkers,
          testTimeout: 900_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          // Load: it measures the shop's memory on the machine, so `npm test` runs it alone,
          // after everything else (beside the other suites the worker's memory grew with its
          // backlog, not with a leak).
          name: 'hardening-load',
          include: ['hardening/load.test.ts'],
          environment: 'node',
          pool: 'forks',
          maxWorkers: 1,
          testTimeout: 900_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
