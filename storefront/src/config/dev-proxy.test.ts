// @vitest-environment node
import { describe, expect, it } from 'vitest'

import config, { devProxyTarget } from '../../vite.config'

/** `npm run dev` proxies to the web process's PORT, not always to 3000. */
describe('the dev server proxy', () => {
  it('follows PORT, and defaults to 3000', () => {
    expect(devProxyTarget({ PORT: '4123' })).toBe('http://localhost:4123')
    expect(devProxyTarget({})).toBe('http://localhost:3000')
  })

  it('sends the API, files and downloads to the web process', () => {
    const served = config({ command: 'serve', mode: 'development' }) as {
      server?: { proxy?: Record<string, string> }
    }
    const proxy = served.server?.proxy ?? {}
    expect(Object.keys(proxy).sort()).toEqual(['/api', '/documents', '/download', '/media'])
    expect(new Set(Object.values(proxy))).toEqual(new Set([devProxyTarget()]))
  })
})
