import { describe, expect, it } from 'vitest'
import { validateLogin } from './validate.ts'

describe('validateLogin', () => {
  it('requires both fields', () => {
    expect(validateLogin('', '')).toEqual({ email: 'validation.required', password: 'validation.required' })
    expect(validateLogin('   ', 'x')).toEqual({ email: 'validation.required' })
  })
  it('checks the e-mail permissively', () => {
    expect(validateLogin('admin@example.com', 'x')).toEqual({})
    expect(validateLogin(' a.b+c@d.ch ', 'x')).toEqual({})
    expect(validateLogin('admin@example', 'x')).toEqual({ email: 'validation.email' })
    expect(validateLogin('a b@c.ch', 'x')).toEqual({ email: 'validation.email' })
  })
})
