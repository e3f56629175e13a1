import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, it } from 'vitest'

/**
 * One file-name convention across the storefront: a file whose main export is
 * a React component is named after it in PascalCase (`ProductForm.tsx`); every other file (api
 * calls, hooks, helpers, styles, test helpers) is kebab-case (`get-products.ts`,
 * `use-bsv-rate.ts`). Tests take their subject's name.
 */
const SRC = path.dirname(fileURLToPath(import.meta.url))
const PASCAL = /^[A-Z][A-Za-z0-9]*$/
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(full) : [full]
  })
}

describe('storefront file names', () => {
  it('are PascalCase for components and kebab-case for everything else', () => {
    const wrong = filesUnder(SRC)
      .map((file) => path.relative(SRC, file))
      .filter((file) => {
        const stem = path.basename(file).replace(/(\.test)?\.(tsx?|css)$/, '')
        if (file.endsWith('.tsx') && PASCAL.test(stem)) return false
        return !KEBAB.test(stem)
      })
    expect(wrong).toEqual([])
  })

  it('keep directories kebab-case', () => {
    const dirs = filesUnder(SRC).map((file) => path.dirname(path.relative(SRC, file)))
    const wrong = [...new Set(dirs)].filter(
      (dir) => dir !== '.' && !dir.split(path.sep).every((part) => KEBAB.test(part)),
    )
    expect(wrong).toEqual([])
  })
})
