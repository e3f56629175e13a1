import fs from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

/**
 * Every text colour of the palette on its tinted background, the status badges' included, must
 * reach WCAG AA for normal text (4.5:1); the badges are 0.8rem.
 */
const css = fs.readFileSync(path.join(import.meta.dirname, 'global.css'), 'utf8')
const token = (name: string) => {
  const value = new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{6})`).exec(css)?.[1]
  if (!value) throw new Error(`no --${name} in global.css`)
  return value
}

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

describe('the palette', () => {
  it.each(['success', 'danger', 'warning', 'info'])('--%s on --%s-bg reaches 4.5:1', (name) => {
    expect(contrast(token(name), token(`${name}-bg`))).toBeGreaterThanOrEqual(4.5)
  })
})
