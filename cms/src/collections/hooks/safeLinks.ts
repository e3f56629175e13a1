import { ValidationError } from 'payload'
import type { CollectionBeforeValidateHook, GlobalBeforeValidateHook } from 'payload'

/** What a link on the site may point to: the web, mail, the phone, or the site itself. */
const SAFE = /^(https?:|mailto:|tel:|\/|#|\?)/i
const LINK_FIELD = /(^|[a-z])(link|url|href)$/i

/** The scheme a browser would see: control characters and spaces are ignored before it. */
const normalized = (url: string) =>
  [...url]
    .filter((char) => char.charCodeAt(0) > 0x20 && !(char >= '\u007f' && char <= '\u009f'))
    .join('')

export const isSafeLink = (url: string): boolean => {
  const cleaned = normalized(url)
  return cleaned === '' || SAFE.test(cleaned) || !/^[a-z][a-z0-9+.-]*:/i.test(cleaned)
}

/** Every unsafe link in `data`: rich-text link nodes and the link fields of the site's texts. */
function unsafeLinks(value: unknown, path: string, found: { path: string; url: string }[]) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => unsafeLinks(item, `${path}.${i}`, found))
    return
  }
  if (!value || typeof value !== 'object') return
  const node = value as Record<string, unknown>
  if (
    (node.type === 'link' || node.type === 'autolink') &&
    node.fields &&
    typeof node.fields === 'object'
  ) {
    const url = (node.fields as { url?: unknown }).url
    if (typeof url === 'string' && !isSafeLink(url)) found.push({ path, url })
  }
  for (const [key, child] of Object.entries(node)) {
    const childPath = path ? `${path}.${key}` : key
    if (typeof child === 'string') {
      if (LINK_FIELD.test(key) && !isSafeLink(child)) found.push({ path: childPath, url: child })
    } else unsafeLinks(child, childPath, found)
  }
}

const MESSAGE =
  "Links must start with https://, http://, mailto:, tel: or / (a page of the site): javascript:, data: and other schemes can run code in a visitor's browser."

function check(slug: string, data: unknown, global: boolean) {
  const found: { path: string; url: string }[] = []
  unsafeLinks(data, '', found)
  if (found.length === 0) return
  throw new ValidationError({
    ...(global ? { global: slug } : { collection: slug }),
    errors: found.map(({ path }) => ({ path: path.split('.')[0] ?? path, message: MESSAGE })),
  })
}

/**
 * Links editors write (rich-text links, the papers' and tools' link fields) may not use
 * `javascript:`, `data:`, `vbscript:` or any other scheme that runs code.
 */
export const refuseUnsafeLinks: CollectionBeforeValidateHook = ({ data, collection }) => {
  check(collection.slug, data, false)
  return data
}

export const refuseUnsafeLinksInGlobal: GlobalBeforeValidateHook = ({ data, global }) => {
  check(global.slug, data, true)
  return data
}
