import { describe, expect, it } from 'vitest'
import { safeRedirect, switchFacilityPath } from './paths.ts'

describe('safeRedirect', () => {
  const origin = 'https://cockpit.example'
  it('keeps same-origin paths with query and hash', () => {
    expect(safeRedirect('/facility/3/power?x=1#a', origin)).toBe('/facility/3/power?x=1#a')
  })
  it('refuses other origins and tricks', () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'facility/1', '', null]) {
      expect(safeRedirect(bad, origin)).toBeNull()
    }
  })
  it('refuses the login page itself', () => {
    expect(safeRedirect('/login?installation=1', origin)).toBeNull()
    expect(safeRedirect('/login/forgot', origin)).toBeNull()
  })
})

describe('switchFacilityPath', () => {
  it('keeps the sub-page', () => {
    expect(switchFacilityPath('/facility/1/power', 2)).toBe('/facility/2/power')
    expect(switchFacilityPath('/facility/1', 2)).toBe('/facility/2')
    expect(switchFacilityPath('/elsewhere', 2)).toBe('/facility/2')
  })
})
