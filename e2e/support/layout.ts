import type { Page } from 'playwright-core'

/** Leaf text boxes that overlap one another (each pair once), as "a | b". */
export async function overlappingText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const boxes: { text: string; r: DOMRect }[] = []
    const walker = document.createTreeWalker(
      document.querySelector('main') ?? document.body,
      NodeFilter.SHOW_TEXT,
    )
    // Text for screen readers only (clipped to a 1 px box) is not drawn: it overlaps nothing.
    const visuallyHidden = (el: Element | null): boolean => {
      for (let e = el; e; e = e.parentElement) {
        const style = getComputedStyle(e)
        const rect = e.getBoundingClientRect()
        if (style.clip !== 'auto' || style.clipPath !== 'none') return true
        if (rect.width <= 1 && rect.height <= 1 && style.overflow === 'hidden') return true
      }
      return false
    }
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim()
      if (!text || visuallyHidden(node.parentElement)) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      for (const r of range.getClientRects())
        if (r.width > 0 && r.height > 0) boxes.push({ text: text.slice(0, 40), r })
    }
    const out: string[] = []
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!.r
        const b = boxes[j]!.r
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left)
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)
        if (x > 2 && y > 2) out.push(`${boxes[i]!.text} | ${boxes[j]!.text}`)
      }
    return out
  })
}
