// One flat config for every workspace.
import fs from 'node:fs'

import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const WORKSPACES = ['domain', 'chain', 'cms', 'storefront', 'payment-worker']

const workspacePattern = (workspace) => ({
  regex: `^(\\.\\./)+(${WORKSPACES.filter((w) => w !== workspace).join('|')})/`,
  message: `Import another workspace through its package exports (@shop/...), not by a relative path.`,
})

// The storefront's features (bulletproof-react): each stands alone; shared code lives in
// src/components, src/lib and src/config, and only src/app puts the features together.
const STOREFRONT_FEATURES = fs
  .readdirSync(new URL('./storefront/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const otherFeaturePattern = (feature) => ({
  regex: `^(@/features/(?!${feature}/)|(\\.\\./)+(features/)?(${STOREFRONT_FEATURES.filter((f) => f !== feature).join('|')})/)`,
  message: `A feature does not import another feature: move what both need to src/components or src/lib.`,
})

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-server/**',
      '**/.next/**',
      'data/**',
      'bench/results/**',
      'cms/src/app/(payload)/**',
      'cms/src/payload-types.ts',
      'cms/src/migrations/**',
      'cms/next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // Workspaces meet only through their package exports (`@shop/chain`, `@shop/cms/engine`...):
  // a relative path into another workspace is refused.
  ...WORKSPACES.map((workspace) => ({
    files: [`${workspace}/**/*.{ts,tsx,mjs}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [workspacePattern(workspace)],
        },
      ],
    },
  })),
  {
    // The database layer sits below HTTP: cms/src/db serves api/ and server/, never imports them.
    files: ['cms/src/db/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            workspacePattern('cms'),
            {
              regex: '^(\\.\\./)+(api|server)(/|$)',
              message: 'db/ does not import api/ or server/: move what both need into db/.',
            },
          ],
        },
      ],
    },
  },
  ...STOREFRONT_FEATURES.map((feature) => ({
    files: [`storefront/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [workspacePattern('storefront'), otherFeaturePattern(feature)] },
      ],
    },
  })),
  {
    // Shared code serves the features, never the other way round.
    files: ['storefront/src/{components,lib,config}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            workspacePattern('storefront'),
            {
              regex: '^(@/features/|(\\.\\./)+features/)',
              message: 'Shared code does not import a feature.',
            },
          ],
        },
      ],
    },
  },
  {
    // One schema for every setting (cms/src/config/env.ts): no module reads the environment itself.
    files: ['{domain,chain,cms,payment-worker}/src/**/*.{ts,tsx}'],
    ignores: ['cms/src/config/env.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read settings through loadEnv() (cms/src/config/env.ts), not process.env.',
        },
      ],
    },
  },
  {
    // The payment worker stays in small pieces: no function longer than 80 lines.
    files: ['payment-worker/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // Run by mongosh (deploy/), which provides these.
    files: ['deploy/**/*.js'],
    languageOptions: {
      globals: { rs: 'readonly', db: 'readonly', print: 'readonly', sleep: 'readonly' },
    },
  },
  {
    files: ['storefront/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: [
      'scripts/**',
      'e2e/**',
      'bench/**',
      'hardening/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/test/**',
    ],
    rules: { 'no-console': 'off' },
  },
)
