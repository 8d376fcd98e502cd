import { describe, expect, it } from 'vitest'
import { isStrongPassword } from './password.ts'

describe('password rule (SPEC §5)', () => {
  it('needs 8 characters, a number and a symbol', () => {
    expect(isStrongPassword('Abcdef1!')).toBe(true)
    expect(isStrongPassword('Grüezi-2026')).toBe(true)
    expect(isStrongPassword('Abc1!')).toBe(false)
    expect(isStrongPassword('Abcdefgh!')).toBe(false)
    expect(isStrongPassword('Abcdefgh1')).toBe(false)
    expect(isStrongPassword('abcd efg1')).toBe(false)
  })
})
