import { convertLexicalToHTML } from '@payloadcms/richtext-lexical/html'
import type { Payload } from 'payload'
import type {
  Faq,
  LandingHero,
  Legal,
  Paper,
  PapersPage,
  TimelineItem,
  Tool,
  Wallet,
} from '@shop/domain'

import { globalSlugs, slugs } from '../../collections/slugs'
import type { Document, Paper as PaperDoc } from '../../payload-types'

/** Read operations for the public information pages; every text comes from the CMS. */

const documentUrl = (doc: number | string | Document | null | undefined): string | null =>
  doc && typeof doc === 'object' && doc.filename
    ? `/documents/${encodeURIComponent(doc.filename)}`
    : null

const linkOrHash = (value: string | null | undefined): string => (value && value.trim()) || '#'

function paperVersion(version: PaperDoc['en']): Paper['versions']['en'] {
  return {
    link: documentUrl(version?.file) ?? linkOrHash(version?.link),
    certificate_link: linkOrHash(version?.certificateLink),
  }
}

export async function listPapers({ payload }: { payload: Payload }): Promise<Paper[]> {
  const { docs } = await payload.find({
    collection: slugs.papers,
    sort: 'order',
    depth: 1,
    pagination: false,
    limit: 0,
  })
  return docs.map((paper) => ({
    id: paper.id,
    title: paper.title,
    description: paper.description,
    versions: { en: paperVersion(paper.en), it: paperVersion(paper.it) },
  }))
}

export async function listTimeline({ payload }: { payload: Payload }): Promise<TimelineItem[]> {
  const { docs } = await payload.find({
    collection: slugs.timeline,
    sort: 'order',
    pagination: false,
    limit: 0,
  })
  return docs.map((item) => ({
    id: item.id,
    date: item.date,
    title: item.title,
    description: item.description,
    status: item.status,
  }))
}

export async function getLegal({ payload }: { payload: Payload }): Promise<Legal> {
  const legal = await payload.findGlobal({ slug: globalSlugs.legal })
  return {
    termsHtml: legal.termsOfUse
      ? convertLexicalToHTML({ data: legal.termsOfUse, disableContainer: true })
      : '',
    privacyHtml: legal.privacyPolicy
      ? convertLexicalToHTML({ data: legal.privacyPolicy, disableContainer: true })
      : '',
  }
}

export async function listFaqs({ payload }: { payload: Payload }): Promise<Faq[]> {
  const faqs = await payload.findGlobal({ slug: globalSlugs.faqs })
  return (faqs.items ?? []).map(({ question, answer }) => ({ question, answer }))
}

const LANGUAGE_LABELS: Record<string, string> = {
  en: 'English',
  it: 'Italiano',
  fr: 'Français',
  es: 'Español',
}

export async function listTools({ payload }: { payload: Payload }): Promise<Tool[]> {
  const proofs = await payload.findGlobal({ slug: globalSlugs.proofsTools })
  return (proofs.tools ?? []).map((tool) => ({
    name: tool.name,
    description: tool.description,
    link: linkOrHash(tool.link),
    manuals: (tool.manuals ?? []).map((manual) => ({
      language: manual.language,
      label: LANGUAGE_LABELS[manual.language] ?? manual.language,
      link: linkOrHash(manual.link),
    })),
  }))
}

export async function listWallets({ payload }: { payload: Payload }): Promise<Wallet[]> {
  const wallets = await payload.findGlobal({ slug: globalSlugs.wallets })
  return (wallets.wallets ?? []).map(({ name, description, link }) => ({ name, description, link }))
}

/** The hero's texts; a global never saved reads as its defaults (the site's original texts). */
export async function getLandingHero({ payload }: { payload: Payload }): Promise<LandingHero> {
  const hero = await payload.findGlobal({ slug: globalSlugs.landingHero })
  return {
    eyebrow: hero.eyebrow,
    title: hero.title,
    text: hero.text,
    storeButtonLabel: hero.storeButtonLabel,
    resourcesButtonLabel: hero.resourcesButtonLabel,
  }
}

export async function getPapersPage({ payload }: { payload: Payload }): Promise<PapersPage> {
  const page = await payload.findGlobal({ slug: globalSlugs.papersPage, depth: 1 })
  return {
    introduction: {
      eyebrow: page.introduction.eyebrow,
      title: page.introduction.title,
      text: page.introduction.text,
    },
    publicKeyUrl: documentUrl(page.publicKey) ?? '#',
    authorLinksUrl: linkOrHash(page.authorLinksUrl),
  }
}
