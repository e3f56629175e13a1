import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const require = createRequire(import.meta.url)
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

export type AxeViolation = { id: string; impact: string | null; help: string; targets: string[] }

/** Runs axe-core (node_modules/axe-core/axe.min.js) in the page and returns its serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, so the shop's real CSP (script-src 'self') stays on.
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run: () => Promise<{
          violations: {
            id: string
            impact: string | null
            help: string
            nodes: { target: unknown[] }[]
          }[]
        }>
      }
    }
    const result = await axe.run()
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => String(node.target.join(' '))),
    }))
  })
  return violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  )
}
