import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder for this run's seeded shop (shopTemplate.ts), empty until one is saved. */
    testShopTemplate: string
  }
}

/**
 * Global set-up of the projects that start test shops: one folder per run for a seeded shop to
 * copy. Seeding (a PDF, two covers through sharp, the papers and texts) and Payload's schema
 * push took about 2 s of CPU in each of some 50 test files; copying the first one's result
 * takes a few milliseconds.
 */
export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-template-'))
  project.provide('testShopTemplate', dir)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
