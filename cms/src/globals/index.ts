import type { GlobalConfig } from 'payload'

import { anyone } from '../access/anyone'
import { isStaff } from '../access/isStaff'
import { refuseUnsafeLinksInGlobal } from '../collections/hooks/safeLinks'
import { globalSlugs, slugs } from '../collections/slugs'
import { landingHeroDefaults, papersIntroductionDefaults } from './defaults'

/**
 * A site text: one global that staff edit and anyone reads, listed under "Site texts", whose
 * saves refuse links that could run code (javascript:, data:...).
 */
function siteText(global: GlobalConfig): GlobalConfig {
  return {
    ...global,
    admin: { group: 'Site texts', ...global.admin },
    access: { read: anyone, update: isStaff },
    hooks: {
      ...global.hooks,
      beforeValidate: [...(global.hooks?.beforeValidate ?? []), refuseUnsafeLinksInGlobal],
    },
  }
}

/** Terms of use and privacy policy on /legal. */
export const Legal: GlobalConfig = siteText({
  slug: globalSlugs.legal,
  label: 'Legal texts',
  fields: [
    { name: 'termsOfUse', type: 'richText', required: true },
    { name: 'privacyPolicy', type: 'richText', required: true },
  ],
})

/** The top of the landing page: its words and its two buttons' labels (the targets are fixed). */
export const LandingHero: GlobalConfig = siteText({
  slug: globalSlugs.landingHero,
  label: 'Landing hero',
  admin: {
    description:
      'The top of the home page. The first button goes to the store, the second to the resources section.',
  },
  fields: [
    {
      name: 'eyebrow',
      type: 'text',
      required: true,
      maxLength: 80,
      defaultValue: landingHeroDefaults.eyebrow,
      admin: { description: 'The small line above the title.' },
    },
    {
      name: 'title',
      type: 'text',
      required: true,
      maxLength: 120,
      defaultValue: landingHeroDefaults.title,
    },
    {
      name: 'text',
      type: 'textarea',
      required: true,
      maxLength: 600,
      defaultValue: landingHeroDefaults.text,
    },
    {
      name: 'storeButtonLabel',
      type: 'text',
      required: true,
      maxLength: 40,
      defaultValue: landingHeroDefaults.storeButtonLabel,
      admin: { description: 'The button to the store.' },
    },
    {
      name: 'resourcesButtonLabel',
      type: 'text',
      required: true,
      maxLength: 40,
      defaultValue: landingHeroDefaults.resourcesButtonLabel,
      admin: { description: 'The button to the resources section.' },
    },
  ],
})

/** The four questions of the landing page's FAQ. */
export const LandingFaqs: GlobalConfig = siteText({
  slug: globalSlugs.faqs,
  label: 'Landing FAQs',
  fields: [
    {
      name: 'items',
      type: 'array',
      fields: [
        { name: 'question', type: 'text', required: true },
        { name: 'answer', type: 'textarea', required: true },
      ],
    },
  ],
})

/** The tools listed on /proofs; a '#' link shows 'Link Coming Soon'. */
export const ProofsTools: GlobalConfig = siteText({
  slug: globalSlugs.proofsTools,
  label: 'Proofs tools',
  fields: [
    {
      name: 'tools',
      type: 'array',
      fields: [
        { name: 'name', type: 'text', required: true },
        { name: 'description', type: 'textarea', required: true },
        { name: 'link', type: 'text', defaultValue: '#' },
        {
          name: 'manuals',
          type: 'array',
          fields: [
            {
              name: 'language',
              type: 'select',
              required: true,
              options: [
                { label: 'English', value: 'en' },
                { label: 'Italian', value: 'it' },
                { label: 'French', value: 'fr' },
                { label: 'Spanish', value: 'es' },
              ],
            },
            { name: 'link', type: 'text', defaultValue: '#' },
          ],
        },
      ],
    },
  ],
})

/** The wallets recommended on /wallet-info. */
export const RecommendedWallets: GlobalConfig = siteText({
  slug: globalSlugs.wallets,
  label: 'Recommended wallets',
  fields: [
    {
      name: 'wallets',
      type: 'array',
      maxRows: 6,
      fields: [
        { name: 'name', type: 'text', required: true },
        { name: 'description', type: 'textarea', required: true },
        { name: 'link', type: 'text', required: true },
      ],
    },
  ],
})

/** The introduction, the public key and the author link on /papers. */
export const PapersPage: GlobalConfig = siteText({
  slug: globalSlugs.papersPage,
  label: 'Papers page',
  fields: [
    {
      name: 'introduction',
      type: 'group',
      admin: { description: 'The top of the page, above the papers.' },
      fields: [
        {
          name: 'eyebrow',
          type: 'text',
          required: true,
          maxLength: 80,
          defaultValue: papersIntroductionDefaults.eyebrow,
        },
        {
          name: 'title',
          type: 'text',
          required: true,
          maxLength: 120,
          defaultValue: papersIntroductionDefaults.title,
        },
        {
          name: 'text',
          type: 'textarea',
          required: true,
          maxLength: 1000,
          defaultValue: papersIntroductionDefaults.text,
        },
      ],
    },
    {
      name: 'publicKey',
      type: 'upload',
      relationTo: slugs.documents,
      admin: { description: 'The .pem file visitors download to verify signatures.' },
    },
    { name: 'authorLinksUrl', type: 'text', defaultValue: '#' },
  ],
})

export const globals: GlobalConfig[] = [
  Legal,
  LandingHero,
  LandingFaqs,
  ProofsTools,
  RecommendedWallets,
  PapersPage,
]
