import { afterAll, describe, expect, it } from 'vitest'

/**
 * The storefront's CSP has no 'unsafe-eval': a schema that probes `new Function` makes the
 * browser report a violation on every page that loads it (every admin page would).
 */
const compiled: unknown[] = []
const RealFunction = globalThis.Function
globalThis.Function = new Proxy(RealFunction, {
  construct(target, args) {
    compiled.push(args)
    return Reflect.construct(target, args) as object
  },
  apply(target, thisArg, args) {
    compiled.push(args)
    return Reflect.apply(target, thisArg, args) as unknown
  },
})
afterAll(() => {
  globalThis.Function = RealFunction
})

describe('the shop’s zod', () => {
  it('builds and parses every kind of contract without compiling code at run time', async () => {
    const domain = await import('./index')
    expect(domain.productInputSchema.safeParse({}).success).toBe(false)
    expect(
      domain.createOrderRequestSchema.safeParse({ productId: 1, userEmail: 'a@b.co' }).success,
    ).toBe(true)
    expect(domain.adminLoginSchema.safeParse({ email: 'a@b.co', password: 'x' }).success).toBe(true)
    expect(compiled).toEqual([])
  })
})
