import type { Access } from 'payload'

/** Public content: anyone may read it. */
export const anyone: Access = () => true
