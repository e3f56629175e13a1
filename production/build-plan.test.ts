import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, it } from 'vitest'

import { buildSteps } from '../scripts/build-plan.mjs'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const scriptsOf = (dir: string) =>
  (
    JSON.parse(fs.readFileSync(path.join(repo, dir, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
  ).scripts

/**
 * Every step `npm start` may run is a real npm script: `NODE_ENV=production npm start` with
 * sources newer than the bundle builds it first, and a step such as
 * `npm run exec -- node scripts/build-bundle.mjs`, which is no script, would stop the shop from
 * starting ("Missing script: exec").
 */
describe('what npm start builds', () => {
  it.each([false, true])(
    'names real npm scripts and real sources (production: %s)',
    (production) => {
      for (const step of buildSteps({ production })) {
        const [script, ...rest] = step.command
        const at = rest.indexOf('-w')
        const workspace = at >= 0 ? rest[at + 1]! : '.'
        expect(
          scriptsOf(workspace),
          `${step.name}: npm run ${step.command.join(' ')}`,
        ).toHaveProperty([script!])
        for (const source of step.sources)
          expect(fs.existsSync(path.join(repo, source)), source).toBe(true)
      }
    },
  )

  it('includes the production bundle only in production', () => {
    expect(buildSteps({ production: true }).map((s) => s.output)).toContain('dist/web.mjs')
    expect(buildSteps({ production: false }).map((s) => s.output)).not.toContain('dist/web.mjs')
  })
})

/**
 * Found by the benchmark: with NODE_ENV=production (as `NODE_ENV=production npm start` builds a
 * stale admin), Payload's import map step loaded the config and refused to run without the
 * production settings (PAYLOAD_SECRET, BSV_XPUB, SMTP_HOST...). Building needs no secrets.
 */
describe("the CMS admin's build", () => {
  it('needs no production settings under NODE_ENV=production', () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', NODE_ENV: 'production' }
    const run = spawnSync(process.execPath, ['scripts/build-cms.mjs', '--import-map-only'], {
      cwd: repo,
      env,
      encoding: 'utf8',
    })
    expect(run.stderr + run.stdout).not.toMatch(/required in production/)
    expect(run.status).toBe(0)
  }, 60_000)
})
