import { describe, expect, it } from 'vitest'
import { ApiError, errorMessage, extractMessage, fieldErrors } from './errors.ts'

const t = (key: string) => `t:${key}`

describe('SPEC §8 message extraction', () => {
  it('takes the first entry of detail, or detail', () => {
    expect(extractMessage({ detail: ['first', 'second'] })).toBe('first')
    expect(extractMessage({ detail: 'No active account found with the given credentials' })).toBe('No active account found with the given credentials')
  })
  it('takes the first entry of an array body', () => expect(extractMessage(['a', 'b'])).toBe('a'))
  it('takes the first message of the first field', () => {
    expect(extractMessage({ email: ['The field is required.'], password: ['x'] })).toBe('The field is required.')
  })
  it('falls back to the raw body', () => {
    expect(extractMessage('plain text')).toBe('plain text')
    expect(extractMessage('')).toBeNull()
  })
})

describe('errorMessage', () => {
  it('uses the status text for 5xx', () => {
    expect(errorMessage(new ApiError('/x', 500, '', { detail: 'secret' }), t)).toBe('t:errors.http500')
    expect(errorMessage(new ApiError('/x', 504, 'Gateway Timeout', null), t)).toBe('t:errors.server')
  })
  it('extracts from 4xx bodies', () => {
    expect(errorMessage(new ApiError('/x', 401, '', { detail: 'Wrong' }), t)).toBe('Wrong')
    expect(errorMessage(new ApiError('/x', 404, '', null), t)).toBe('t:errors.http404')
  })
  it('names cancelled and unknown errors', () => {
    expect(errorMessage(new DOMException('x', 'AbortError'), t)).toBe('t:errors.canceled')
    expect(errorMessage(new TypeError('fetch failed'), t)).toBe('t:errors.generic')
  })
  it('builds the generic message for other statuses', () => {
    expect(new ApiError('/x', 418, "I'm a teapot", 'short').message).toBe("Generic Error: 418; I'm a teapot; short")
    expect(new ApiError('/x', 403, '', null).message).toBe('Forbidden')
  })
})

describe('fieldErrors', () => {
  it('maps 400 field errors to their first message', () => {
    expect(fieldErrors(new ApiError('/x', 400, '', { email: ['bad', 'worse'], detail: 'x' }))).toEqual({ email: 'bad' })
    expect(fieldErrors(new ApiError('/x', 401, '', { email: ['bad'] }))).toEqual({})
  })
})
