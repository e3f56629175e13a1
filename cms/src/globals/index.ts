import type { GlobalConfig } from 'payload'

import { anyone } from '../access/anyone'
import { isStaff } from '../access/isStaff'
import { refuseUnsafeLinksInGlobal } from '../collections/hooks/safeLinks'
import { globalSlugs, slugs } from '../collections/slugs'

const contentAccess = { read: anyone, update: isStaff }

/** Terms of use and privacy policy on /legal. */
export const Legal: GlobalConfig = {
  slug: globalSlugs.legal,
  label: 'Legal texts',
  admin: { group: 'Site texts' },
  access: contentAccess,
  fields: [
    { name: 'termsOfUse', type: 'richText', required: true },
    { name: 'privacyPolicy', type: 'richText', required: true },
  ],
}

/** The four questions of the landing page's FAQ. */
export const LandingFaqs: GlobalConfig = {
  slug: globalSlugs.faqs,
  label: 'Landing FAQs',
  admin: { group: 'Site texts' },
  access: contentAccess,
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
}

/** The tools listed on /proofs; a '#' link shows 'Link Coming Soon'. */
export const ProofsTools: GlobalConfig = {
  slug: globalSlugs.proofsTools,
  label: 'Proofs tools',
  admin: { group: 'Site texts' },
  access: contentAccess,
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
}

/** The wallets recommended on /wallet-info. */
export const RecommendedWallets: GlobalConfig = {
  slug: globalSlugs.wallets,
  label: 'Recommended wallets',
  admin: { group: 'Site texts' },
  access: contentAccess,
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
}

/** The public key and author link on /papers. */
export const PapersPage: GlobalConfig = {
  slug: globalSlugs.papersPage,
  label: 'Papers page',
  admin: { group: 'Site texts' },
  access: contentAccess,
  fields: [
    {
      name: 'publicKey',
      type: 'upload',
      relationTo: slugs.documents,
      admin: { description: 'The .pem file visitors download to verify signatures.' },
    },
    { name: 'authorLinksUrl', type: 'text', defaultValue: '#' },
  ],
}

/** Every site text refuses links that could run code (javascript:, data:...). */
export const globals: GlobalConfig[] = [
  Legal,
  LandingFaqs,
  ProofsTools,
  RecommendedWallets,
  PapersPage,
].map((global) => ({
  ...global,
  hooks: {
    ...global.hooks,
    beforeValidate: [...(global.hooks?.beforeValidate ?? []), refuseUnsafeLinksInGlobal],
  },
}))
