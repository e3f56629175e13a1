import { describe, expect, it, vi } from 'vitest'

import { hasForeignOpener, isolateFromOpener } from './opener'

/** A window at `href` whose opener is `opener`, recording what the page does to its address. */
function windowAt(href: string, opener: unknown) {
  const replaced: string[] = []
  const win = {
    opener,
    location: {
      href,
      origin: new URL(href).origin,
      replace: (url: URL) => replaced.push(`${url}`),
    },
    history: { state: { idx: 0 }, replaceState: vi.fn() },
  }
  return { win: win as unknown as Window, replaced, replaceState: win.history.replaceState }
}
const crossOrigin = {
  get location(): never {
    throw new DOMException('Blocked a frame from accessing a cross-origin frame.', 'SecurityError')
  },
}
const sameOrigin = { location: { origin: 'https://shop.example' } }

describe('a public page opened by another site (decision 017)', () => {
  it('tells a foreign opener from none and from the shop itself', () => {
    expect(hasForeignOpener(windowAt('https://shop.example/store', null).win)).toBe(false)
    expect(hasForeignOpener(windowAt('https://shop.example/store', sameOrigin).win)).toBe(false)
    expect(hasForeignOpener(windowAt('https://shop.example/store', crossOrigin).win)).toBe(true)
  })

  it('asks for itself again with ?isolate when another site holds its window', () => {
    const { win, replaced } = windowAt('https://shop.example/product/7?ref=x#top', crossOrigin)
    expect(isolateFromOpener(win)).toBe(true)
    expect(replaced).toEqual(['https://shop.example/product/7?ref=x&isolate=#top'])
  })

  it('stays as it is without an opener, or opened by the shop itself', () => {
    for (const opener of [null, sameOrigin]) {
      const { win, replaced, replaceState } = windowAt('https://shop.example/store', opener)
      expect(isolateFromOpener(win)).toBe(false)
      expect(replaced).toEqual([])
      expect(replaceState).not.toHaveBeenCalled()
    }
  })

  it('back with the marker, drops it from the address and never asks twice', () => {
    // A browser without the policy keeps its opener: the page must not ask in a loop.
    const { win, replaced, replaceState } = windowAt(
      'https://shop.example/store?isolate=&q=1',
      crossOrigin,
    )
    expect(isolateFromOpener(win)).toBe(false)
    expect(replaced).toEqual([])
    expect(replaceState).toHaveBeenCalledWith(
      { idx: 0 },
      '',
      new URL('https://shop.example/store?q=1'),
    )
  })
})
