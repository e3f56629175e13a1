import type { Payload } from 'payload'

import { globalSlugs, slugs } from '../collections/slugs'
import type { Env } from '../config/env'
import { landingHeroDefaults, papersIntroductionDefaults } from '../globals/defaults'
import type { Logger } from '../server/logger'
import { papers } from './data/papers'
import { faqs, privacyPolicy, termsOfUse, tools, wallets } from './data/texts'
import { timeline } from './data/timeline'
import { makeCover, makePdf, makePublicKeyPem } from './files'
import { toLexical } from './lexical'

const BOOK_TITLE = 'Identity, Dual Vote and Trust'

/**
 * Fills an empty shop with what makes it look real. Idempotent: each kind of content is
 * created only when none exists, so restarts and concurrent starts add nothing twice.
 * Never runs in production.
 */
export async function seed({
  payload,
  env,
  logger,
}: {
  payload: Payload
  env: Env
  logger: Logger
}): Promise<void> {
  if (env.isProduction) throw new Error('Seeding is for test mode only.')
  await seedProducts(payload, logger)
  await seedPapers(payload, logger)
  await seedTimeline(payload, logger)
  await seedTexts(payload, logger)
}

const isEmpty = async (payload: Payload, collection: (typeof slugs)[keyof typeof slugs]) =>
  (await payload.count({ collection })).totalDocs === 0

async function seedProducts(payload: Payload, logger: Logger) {
  if (!(await isEmpty(payload, slugs.products))) return
  const pdf = await makePdf({
    title: BOOK_TITLE,
    lines: [
      'A framework of self-managed identity, the dual vote and trust metrics on a public ledger.',
      'Chapter 1. Identity you hold yourself.',
      'Chapter 2. Two votes for every decision.',
      'Chapter 3. Quanta of humanity.',
      'Chapter 4. Dual certification.',
      'Chapter 5. Trust you can recompute.',
    ],
  })
  const digitalFile = await payload.create({
    collection: slugs.digitalFiles,
    data: {},
    file: {
      data: pdf,
      mimetype: 'application/pdf',
      name: 'identity-dual-vote-and-trust.pdf',
      size: pdf.length,
    },
  })
  const digitalCover = await uploadCover(payload, 'digital-edition', 'Digital edition · PDF', 215)
  const printCover = await uploadCover(payload, 'printed-edition', 'Printed edition', 25)

  await payload.create({
    collection: slugs.products,
    data: {
      name: `${BOOK_TITLE} (PDF)`,
      type: 'DIGITAL',
      priceEUR: 14.9,
      totalStock: 10000,
      currentStock: 10000,
      shortDescription:
        'The complete framework in one book: self-managed identity, the dual vote, quanta of humanity and trust metrics on a public ledger. Delivered as a PDF download.',
      isAvailable: true,
      coverImage: digitalCover.id,
      digitalFile: digitalFile.id,
    },
  })
  await payload.create({
    collection: slugs.products,
    data: {
      name: `${BOOK_TITLE} (Printed)`,
      type: 'PHYSICAL',
      priceEUR: 29.9,
      totalStock: 50,
      currentStock: 50,
      shortDescription:
        'The printed edition, 240 pages, paperback. Shipped to your address with a tracking number.',
      isAvailable: true,
      coverImage: printCover.id,
    },
  })
  logger.info('seeded 2 products')
}

async function uploadCover(payload: Payload, name: string, edition: string, hue: number) {
  const image = await makeCover({ title: BOOK_TITLE, edition, hue })
  return payload.create({
    collection: slugs.media,
    data: { alt: `Cover of ${BOOK_TITLE}, ${edition.toLowerCase()}` },
    file: { data: image, mimetype: 'image/webp', name: `cover-${name}.webp`, size: image.length },
  })
}

async function uploadDocument(
  payload: Payload,
  { name, title, data, mimetype }: { name: string; title: string; data: Buffer; mimetype: string },
) {
  return payload.create({
    collection: slugs.documents,
    data: { title },
    file: { data, mimetype, name, size: data.length },
  })
}

async function seedPapers(payload: Payload, logger: Logger) {
  if (!(await isEmpty(payload, slugs.papers))) return
  for (const [index, paper] of papers.entries()) {
    const number = index + 1
    const version = async (lang: 'en' | 'it') => {
      if (!paper.files[lang]) return { link: '#', certificateLink: '#' }
      const suffix = `paper-${number}-${lang}`
      const file = await uploadDocument(payload, {
        name: `${suffix}.pdf`,
        title: `${paper.title} (${lang.toUpperCase()})`,
        mimetype: 'application/pdf',
        data: await makePdf({
          title: paper.title,
          lines: [paper.description, `Language: ${lang === 'en' ? 'English' : 'Italiano'}`],
        }),
      })
      const certificate = await uploadDocument(payload, {
        name: `${suffix}-certificate.pdf`,
        title: `Timestamp certificate: ${paper.title} (${lang.toUpperCase()})`,
        mimetype: 'application/pdf',
        data: await makePdf({
          title: `Timestamp certificate`,
          lines: [paper.title, `Document: ${suffix}.pdf`],
        }),
      })
      return { file: file.id, link: '#', certificateLink: `/documents/${certificate.filename}` }
    }
    await payload.create({
      collection: slugs.papers,
      data: {
        title: paper.title,
        description: paper.description,
        order: number,
        en: await version('en'),
        it: await version('it'),
      },
    })
  }
  logger.info(`seeded ${papers.length} papers`)
}

async function seedTimeline(payload: Payload, logger: Logger) {
  if (!(await isEmpty(payload, slugs.timeline))) return
  for (const [index, item] of timeline.entries()) {
    await payload.create({ collection: slugs.timeline, data: { ...item, order: index + 1 } })
  }
  logger.info(`seeded ${timeline.length} milestones`)
}

async function seedTexts(payload: Payload, logger: Logger) {
  const faqsGlobal = await payload.findGlobal({ slug: globalSlugs.faqs })
  if ((faqsGlobal.items ?? []).length > 0) return
  await payload.updateGlobal({ slug: globalSlugs.landingHero, data: landingHeroDefaults })
  await payload.updateGlobal({ slug: globalSlugs.faqs, data: { items: faqs } })
  await payload.updateGlobal({ slug: globalSlugs.proofsTools, data: { tools } })
  await payload.updateGlobal({ slug: globalSlugs.wallets, data: { wallets } })
  await payload.updateGlobal({
    slug: globalSlugs.legal,
    data: { termsOfUse: toLexical(termsOfUse), privacyPolicy: toLexical(privacyPolicy) },
  })
  const publicKey = await uploadDocument(payload, {
    name: 'public-key.pem',
    title: 'Public key',
    mimetype: 'application/x-pem-file',
    data: makePublicKeyPem(),
  })
  await payload.updateGlobal({
    slug: globalSlugs.papersPage,
    data: {
      introduction: papersIntroductionDefaults,
      publicKey: publicKey.id,
      authorLinksUrl: '#',
    },
  })
  logger.info('seeded site texts')
}
