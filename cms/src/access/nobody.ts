import type { Access, FieldAccess } from 'payload'

/** No one, through any door that checks access (the Local API used by the shop itself skips it). */
export const nobody: Access = () => false

export const nobodyField: FieldAccess = () => false
