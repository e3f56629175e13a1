export const STAFF_ROLES = ['admin', 'editor'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

type WithRole = { role?: unknown; collection?: string } | null | undefined

export function hasRole(user: WithRole, ...roles: StaffRole[]): boolean {
  return Boolean(user && typeof user.role === 'string' && roles.includes(user.role as StaffRole))
}
