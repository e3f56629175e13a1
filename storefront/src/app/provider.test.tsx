import { render, screen } from '@testing-library/react'
import useSWR, { SWRConfig } from 'swr'
import { describe, expect, it } from 'vitest'

import { freshFromPage, initialAnswers } from './provider'

const page = (inner: string) =>
  new DOMParser().parseFromString(`<html><head>${inner}</head></html>`, 'text/html')

describe("the page's first answers", () => {
  it('reads the JSON the server put in #shop-data, keyed by API path', () => {
    const doc = page(
      `<script id="shop-data" type="application/json">{"/api/products":[{"id":1,"name":"A \\u003cb\\u003e"}]}</script>`,
    )
    expect(initialAnswers(doc)).toEqual({ '/api/products': [{ id: 1, name: 'A <b>' }] })
  })

  it('is empty without the element, or when its text is not an object of JSON', () => {
    expect(initialAnswers(page(''))).toEqual({})
    expect(
      initialAnswers(page('<script id="shop-data" type="application/json">{oops</script>')),
    ).toEqual({})
    expect(
      initialAnswers(page('<script id="shop-data" type="application/json">42</script>')),
    ).toEqual({})
  })

  it('lets a screen paint with them before any request answers', () => {
    function Hero() {
      const { data } = useSWR<{ title: string }>(
        '/api/content/landing-hero',
        () => new Promise<{ title: string }>(() => undefined),
      )
      return <h1>{data?.title ?? 'loading'}</h1>
    }
    render(
      <SWRConfig
        value={{
          provider: () => new Map(),
          fallback: { '/api/content/landing-hero': { title: 'Dual Vote' } },
        }}
      >
        <Hero />
      </SWRConfig>,
    )
    expect(screen.getByRole('heading')).toHaveTextContent('Dual Vote')
  })

  it('does not ask again on the first mount of a screen the page answered, and does later', async () => {
    const answers = { '/api/content/landing-hero': { title: 'Dual Vote' } }
    const asked: string[] = []
    const fetcher = (key: string) => {
      asked.push(key)
      return Promise.resolve({ title: 'Fresh' })
    }
    function Hero() {
      const { data } = useSWR<{ title: string }>('/api/content/landing-hero', fetcher)
      return <h1>{data?.title}</h1>
    }
    const config = { provider: () => new Map(), fallback: answers, use: [freshFromPage(answers)] }
    const first = render(
      <SWRConfig value={config}>
        <Hero />
      </SWRConfig>,
    )
    expect(screen.getByRole('heading')).toHaveTextContent('Dual Vote')
    // SWR revalidates a key that has data on the next animation frame: let two pass.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    expect(asked).toEqual([])
    first.unmount()

    render(
      <SWRConfig value={config}>
        <Hero />
      </SWRConfig>,
    )
    expect(await screen.findByText('Fresh')).toBeInTheDocument()
    expect(asked).toEqual(['/api/content/landing-hero'])
  })
})
