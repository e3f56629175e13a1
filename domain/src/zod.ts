import { z } from 'zod'

/**
 * zod for every contract of the shop. Its JIT compiles object parsers with `new Function`, and
 * only probing for that is a Content-Security-Policy violation in the storefront (no
 * 'unsafe-eval'): every admin page reported one. Jitless before any schema is built.
 */
z.config({ jitless: true })

export { z }
