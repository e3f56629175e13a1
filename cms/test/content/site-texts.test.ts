import { landingHeroSchema, papersPageSchema } from '@shop/domain'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { globalSlugs, slugs } from '../../src/collections/slugs'
import { FILE_OR_LINK } from '../../src/collections/Papers/hooks/fileOrLink'
import { createStaff } from '../admin/client'
import { cmsApi, staffJwt } from '../support/cmsApi'
import { api } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * The landing hero and the papers introduction are CMS texts that editors
 * change, served by the public content API; a paper's version has a file or a link, not both.
 */

const EDITOR = { email: 'texts-editor@example.com', password: 'Quartz-ledger-editor-8264' }

const HERO = {
  eyebrow: 'A framework for communities',
  title: 'Identity, the dual vote and trust you can verify',
  text: 'Self-managed identity, decisions voted twice, and trust metrics recorded on a public ledger where anyone can check them. Read the papers, try the tools, and get the book.',
  storeButtonLabel: 'Get the book',
  resourcesButtonLabel: 'Explore resources',
}

const PAPERS_INTRODUCTION = {
  eyebrow: 'Library',
  title: 'White Papers',
  text: 'Nine papers describe the framework, in English and Italian. Each file is certified with a timestamp on the public ledger: open its certificate to check that the text you read is the text that was published.',
}

let shop: TestShop
let payload: Payload
let editorJwt: string

const cms = (jwt: string | null, method: string, path: string, body?: unknown) =>
  cmsApi(shop, jwt ? { jwt } : null, method, path, body)

beforeAll(async () => {
  shop = await startTestShop({ withCms: true })
  payload = shop.payload
  await createStaff({ payload, ...EDITOR, role: 'editor' })
  editorJwt = await staffJwt(payload, EDITOR)
})

afterAll(async () => {
  await shop?.close()
})

describe('the landing hero and the papers introduction', () => {
  it("are seeded with the site's texts and served by the content API", async () => {
    const hero = await api(shop, '/api/content/landing-hero')
    expect(hero.status).toBe(200)
    expect(landingHeroSchema.parse(hero.body)).toEqual(HERO)
    const page = papersPageSchema.parse((await api(shop, '/api/content/papers-page')).body)
    expect(page.introduction).toEqual(PAPERS_INTRODUCTION)
    expect(page.publicKeyUrl).toMatch(/^\/documents\/public-key.*\.pem$/)
  })

  it('are changed by an editor in /cms, and the site says what the editor wrote', async () => {
    const hero = await cms(editorJwt, 'POST', `/globals/${globalSlugs.landingHero}`, {
      title: 'Decide together, and prove it',
      storeButtonLabel: 'Buy the book',
    })
    expect(hero.status).toBe(200)
    expect((await api(shop, '/api/content/landing-hero')).body).toEqual({
      ...HERO,
      title: 'Decide together, and prove it',
      storeButtonLabel: 'Buy the book',
    })

    const papers = await cms(editorJwt, 'POST', `/globals/${globalSlugs.papersPage}`, {
      introduction: { ...PAPERS_INTRODUCTION, text: 'Read the nine papers.' },
    })
    expect(papers.status).toBe(200)
    const page = papersPageSchema.parse((await api(shop, '/api/content/papers-page')).body)
    expect(page.introduction.text).toBe('Read the nine papers.')
    // The rest of the page is untouched.
    expect(page.publicKeyUrl).toMatch(/^\/documents\//)

    await payload.updateGlobal({ slug: globalSlugs.landingHero, data: HERO })
    await payload.updateGlobal({
      slug: globalSlugs.papersPage,
      data: { introduction: PAPERS_INTRODUCTION },
    })
  })

  it('cannot be changed by a visitor, nor emptied by an editor', async () => {
    const anonymous = await cms(null, 'POST', `/globals/${globalSlugs.landingHero}`, {
      title: 'Defaced',
    })
    expect(anonymous.status).toBe(403)
    const emptied = await cms(editorJwt, 'POST', `/globals/${globalSlugs.landingHero}`, {
      title: '',
    })
    expect(emptied.status).toBe(400)
    expect((await api(shop, '/api/content/landing-hero')).body).toEqual(HERO)
  })
})

describe("a paper's language version", () => {
  const paper = async () =>
    (await payload.find({ collection: slugs.papers, sort: 'order', limit: 1, depth: 0 })).docs[0]!

  it('refuses a file and a link at once through /cms/api and the Local API', async () => {
    const first = await paper()
    expect(first.en?.file).toBeTruthy()

    const viaCms = await cms(editorJwt, 'PATCH', `/papers/${first.id}`, {
      en: { ...first.en, link: 'https://example.org/paper.pdf' },
    })
    expect(viaCms.status).toBe(400)
    // (Under Vitest, Next's copy of Payload sends the summary only; the message is checked below.)
    expect(viaCms.text).toContain('Link')

    await expect(
      payload.update({
        collection: slugs.papers,
        id: first.id,
        data: { it: { ...first.it, link: 'https://example.org/paper-it.pdf' } },
      }),
    ).rejects.toMatchObject({ data: { errors: [{ path: 'it.link', message: FILE_OR_LINK }] } })
    await expect(
      payload.create({
        collection: slugs.papers,
        data: {
          title: 'Both',
          description: 'A file and a link.',
          order: 99,
          en: { file: first.en!.file, link: '/elsewhere.pdf', certificateLink: '#' },
        },
      }),
    ).rejects.toMatchObject({ data: { errors: [{ path: 'en.link', message: FILE_OR_LINK }] } })

    const after = await paper()
    expect(after.en?.link).toBe('#')
    const served = (await api(shop, '/api/papers')).body as unknown as {
      versions: { en: { link: string } }
    }[]
    expect(served[0]!.versions.en.link).toMatch(/^\/documents\/.+\.pdf$/)
  })

  it('takes a file with the link left at #, or a link without a file', async () => {
    const first = await paper()
    const linkOnly = await cms(editorJwt, 'PATCH', `/papers/${first.id}`, {
      en: { ...first.en, file: null, link: 'https://example.org/paper.pdf' },
    })
    expect(linkOnly.status).toBe(200)
    const served = (await api(shop, '/api/papers')).body as unknown as {
      versions: { en: { link: string } }
    }[]
    expect(served[0]!.versions.en.link).toBe('https://example.org/paper.pdf')

    const fileAgain = await cms(editorJwt, 'PATCH', `/papers/${first.id}`, {
      en: { ...first.en, link: '#' },
    })
    expect(fileAgain.status).toBe(200)
    expect((await paper()).en?.file).toBe(first.en?.file)
  })
})
