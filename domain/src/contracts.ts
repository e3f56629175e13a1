import { z } from './zod'

/** The public product of the spec (section 3): what GET /api/products returns. */
export const publicProductSchema = z.object({
  id: z.union([z.string(), z.number()]),
  name: z.string(),
  type: z.enum(['PDF', 'PHYSICAL']),
  priceEUR: z.string().regex(/^\d+\.\d{2}$/),
  shortDescription: z.string(),
  coverImageUrl: z.string().nullable(),
  currentStock: z.number().int().min(0),
  isAvailable: z.boolean(),
  /**
   * Beyond the spec: what shipping a printed book adds to its price, in EUR ("0.00" when it is
   * included); null for a PDF.
   */
  shippingCostEUR: z
    .string()
    .regex(/^\d+\.\d{2}$/)
    .nullable(),
})
export type PublicProduct = z.infer<typeof publicProductSchema>

/** The error body of every public endpoint: the storefront shows `error` when present. */
export const apiErrorSchema = z.object({ error: z.string() })
export type ApiError = z.infer<typeof apiErrorSchema>

export const paperLinkSchema = z.object({ link: z.string(), certificate_link: z.string() })
export const paperSchema = z.object({
  id: z.union([z.string(), z.number()]),
  title: z.string(),
  description: z.string(),
  versions: z.object({ en: paperLinkSchema, it: paperLinkSchema }),
})
export type Paper = z.infer<typeof paperSchema>

export const timelineItemSchema = z.object({
  id: z.union([z.string(), z.number()]),
  date: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(['completed', 'upcoming']),
})
export type TimelineItem = z.infer<typeof timelineItemSchema>

export const faqSchema = z.object({ question: z.string(), answer: z.string() })
export type Faq = z.infer<typeof faqSchema>

export const toolSchema = z.object({
  name: z.string(),
  description: z.string(),
  link: z.string(),
  manuals: z.array(z.object({ language: z.string(), label: z.string(), link: z.string() })),
})
export type Tool = z.infer<typeof toolSchema>

export const walletSchema = z.object({
  name: z.string(),
  description: z.string(),
  link: z.string(),
})
export type Wallet = z.infer<typeof walletSchema>

export const legalSchema = z.object({ termsHtml: z.string(), privacyHtml: z.string() })
export type Legal = z.infer<typeof legalSchema>

/** The top of a page as editors write it in the CMS. */
export const pageIntroductionSchema = z.object({
  eyebrow: z.string(),
  title: z.string(),
  text: z.string(),
})
export type PageIntroduction = z.infer<typeof pageIntroductionSchema>

export const papersPageSchema = z.object({
  introduction: pageIntroductionSchema,
  publicKeyUrl: z.string(),
  authorLinksUrl: z.string(),
})
export type PapersPage = z.infer<typeof papersPageSchema>

/** The landing page's hero: its words and its two buttons' labels (to /store, to #resources). */
export const landingHeroSchema = pageIntroductionSchema.extend({
  storeButtonLabel: z.string(),
  resourcesButtonLabel: z.string(),
})
export type LandingHero = z.infer<typeof landingHeroSchema>
