import { describe, expect, it } from 'vitest'

import { closeFirstRegister, FIRST_REGISTER_CLOSED } from './closeFirstRegister'

type HookArgs = Parameters<ReturnType<typeof closeFirstRegister>>[0]

const call = (
  isProduction: boolean,
  operation: string,
  req: { payloadAPI: string; user?: unknown },
) =>
  closeFirstRegister({ isProduction })({
    args: { data: { email: 'x@example.com' } },
    operation,
    req: { ...req, t: (key: string) => key },
  } as unknown as HookArgs)

describe('first-register in production', () => {
  it('refuses a staff account created from outside by nobody signed in, whatever the route', () => {
    expect(() => call(true, 'create', { payloadAPI: 'REST' })).toThrow(FIRST_REGISTER_CLOSED)
    expect(() => call(true, 'create', { payloadAPI: 'GraphQL' })).toThrow(FIRST_REGISTER_CLOSED)
  })

  it('lets the command line (Local API) and signed-in admins create staff', () => {
    expect(call(true, 'create', { payloadAPI: 'local' })).toMatchObject({ data: {} })
    expect(call(true, 'create', { payloadAPI: 'REST', user: { id: 1 } })).toMatchObject({
      data: {},
    })
    expect(call(true, 'login', { payloadAPI: 'REST' })).toMatchObject({ data: {} })
  })

  it('stays open in test mode, where the first visitor is the developer', () => {
    expect(call(false, 'create', { payloadAPI: 'REST' })).toMatchObject({ data: {} })
  })
})
