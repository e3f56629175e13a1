// What `npm start` builds when it is missing or older than its sources (start.mjs), and how:
// each step's output, its sources (paths from the repository root) and the npm script that
// builds it (`npm run <command...>`).
export function buildSteps({ production }) {
  return [
    {
      name: 'the storefront',
      // The renderer is built last (storefront's build script), so it is the step's output.
      output: 'storefront/dist-server/entry-server.js',
      sources: [
        'storefront/src',
        'storefront/index.html',
        'storefront/public',
        'storefront/vite.config.ts',
        'domain/src',
      ],
      command: ['build', '-w', 'storefront'],
      // With NODE_ENV=development Vite would bundle React's development build.
      buildEnv: { NODE_ENV: 'production' },
    },
    {
      name: 'the CMS admin (Next, about a minute)',
      output: 'cms/.next/BUILD_ID',
      sources: [
        'cms/src/payload.config.ts',
        'cms/src/collections',
        'cms/src/globals',
        'cms/src/access',
        'cms/src/app',
        'cms/next.config.mjs',
      ],
      command: ['build', '-w', 'cms'],
    },
    ...(production
      ? [
          {
            name: 'the production bundle',
            output: 'dist/web.mjs',
            sources: ['cms/src', 'payment-worker/src', 'chain/src', 'domain/src'],
            command: ['build:bundle'],
          },
        ]
      : []),
  ]
}
