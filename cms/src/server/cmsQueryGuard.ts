import type { RequestHandler } from 'express'
import type { FlattenedField, Payload } from 'payload'
import { parse } from 'qs-esm'

/** The operators Payload's REST accepts on the shop's fields (none of them is geographic). */
const OPERATORS = new Set([
  'equals',
  'not_equals',
  'in',
  'not_in',
  'all',
  'exists',
  'greater_than',
  'greater_than_equal',
  'less_than',
  'less_than_equal',
  'like',
  'not_like',
  'contains',
])

/** Payload's REST routes under a collection that are not a document id. */
const PAYLOAD_SUB_ROUTES = new Set([
  'access',
  'count',
  'file',
  'first-register',
  'forgot-password',
  // The jobs collection's (refused by its access rule: only the worker runs jobs).
  'handle-schedules',
  'init',
  'login',
  'logout',
  'logout-all',
  'me',
  'paste-url',
  'refresh-token',
  'reset-password',
  'run',
  'unlock',
  'verify',
  'versions',
])

const bad = (res: Parameters<RequestHandler>[1], message: string) =>
  res.status(400).json({ errors: [{ message }] })

type IdRule = (value: string) => boolean

/**
 * Queries to Payload's REST that its database adapter would turn into a server error are
 * refused with a 400 and the reason, before they reach it: an id of the
 * wrong shape (`/cms/api/products/abc`), a date or a number that is not one, a relationship to
 * an id of the wrong shape, an operator the field has no use for (`near` on text).
 */
export function guardCmsQueries({ payload }: { payload: Payload }): RequestHandler {
  const numericIds = payload.db.defaultIDType === 'number'
  const collections = payload.collections as Record<
    string,
    { config: { flattenedFields: FlattenedField[] } } | undefined
  >
  const idRuleOf = (slug: string): IdRule => {
    const idField = collections[slug]?.config.flattenedFields.find((f) => f.name === 'id')
    if (idField) return (value) => value.length > 0 && value.length <= 200
    return numericIds
      ? (value) => /^\d{1,15}$/.test(value)
      : (value) => /^[a-f0-9]{24}$/i.test(value)
  }

  const valueProblem = (field: FlattenedField | undefined, operator: string, raw: unknown) => {
    // A nested object where a value belongs (`[equals][x]=1`) reached the database adapter.
    const plain = (value: unknown) => value === null || typeof value !== 'object'
    if (Array.isArray(raw) ? !raw.every(plain) : !plain(raw)) return 'a plain value'
    if (operator === 'exists') return /^(true|false)$/.test(String(raw)) ? null : 'true or false'
    if (!field) return null
    const values =
      operator === 'in' || operator === 'not_in' || operator === 'all'
        ? (Array.isArray(raw) ? raw : String(raw).split(',')).map(String)
        : [String(raw)]
    for (const value of values) {
      if (value === '' || value === 'null') continue
      if (field.type === 'date' && Number.isNaN(Date.parse(value))) return 'a date'
      if (field.type === 'number' && !Number.isFinite(Number(value))) return 'a number'
      if (
        (field.type === 'relationship' || field.type === 'upload') &&
        typeof field.relationTo === 'string'
      )
        if (!idRuleOf(field.relationTo)(value)) return `an id of ${field.relationTo}`
    }
    return null
  }

  const whereProblem = (slug: string, where: unknown, depth = 0): string | null => {
    if (depth > 6) return 'the query is nested too deeply'
    if (!where || typeof where !== 'object') return 'where must be a set of conditions'
    for (const [key, condition] of Object.entries(where as Record<string, unknown>)) {
      if (key === 'and' || key === 'or') {
        const list = Array.isArray(condition) ? condition : Object.values(condition ?? {})
        for (const inner of list) {
          const problem = whereProblem(slug, inner, depth + 1)
          if (problem) return problem
        }
        continue
      }
      if (!condition || typeof condition !== 'object') return `${key}: give an operator`
      const fields = collections[slug]?.config.flattenedFields ?? []
      const field = key === 'id' ? undefined : fields.find((f) => f.name === key.split('.')[0])
      for (const [operator, value] of Object.entries(condition as Record<string, unknown>)) {
        if (!OPERATORS.has(operator)) return `${key}: the operator ${operator} is not supported`
        if (key === 'id' && (operator === 'equals' || operator === 'not_equals')) {
          if (!idRuleOf(slug)(String(value))) return `id: not an id of ${slug}`
          continue
        }
        const wanted = valueProblem(field, operator, value)
        if (wanted) return `${key}: ${operator} needs ${wanted}`
      }
    }
    return null
  }

  return (req, res, next) => {
    const match = /^\/cms\/api\/([a-z0-9-]+)(?:\/([^/]+))?/.exec(req.path)
    const slug = match?.[1]
    if (!slug || !collections[slug]) {
      next()
      return
    }
    const id = match[2] ? decodeURIComponent(match[2]) : undefined
    // Payload's own sub-routes of a collection are not ids; preferences are read by key.
    const isSubRoute =
      id !== undefined && (PAYLOAD_SUB_ROUTES.has(id) || slug === 'payload-preferences')
    if (id !== undefined && !isSubRoute && !idRuleOf(slug)(id)) {
      res.status(404).json({ errors: [{ message: 'Not found.' }] })
      return
    }
    const query = req.url.includes('?')
      ? parse(req.url.slice(req.url.indexOf('?') + 1), { depth: 10 })
      : {}
    if (query.where !== undefined) {
      const problem = whereProblem(slug, query.where)
      if (problem) {
        bad(res, `Bad query: ${problem}.`)
        return
      }
    }
    for (const name of ['depth', 'limit', 'page'] as const) {
      const value = query[name]
      if (value !== undefined && !/^\d{1,6}$/.test(String(value))) {
        bad(res, `Bad query: ${name} must be a whole number.`)
        return
      }
    }
    next()
  }
}
