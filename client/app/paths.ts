/** Route paths of the client (SPEC §2). */
export const paths = {
  root: '/',
  login: '/login',
  forgotPassword: '/login/forgot',
  facility: (installationId: number | string) => `/facility/${installationId}`,
  power: (installationId: number | string) => `/facility/${installationId}/power`,
} as const

/** Route patterns for wouter. */
export const patterns = {
  login: '/login',
  forgotPassword: '/login/forgot',
  facilityAny: '/facility/:installationId/*?',
  facility: '/facility/:installationId',
  power: '/facility/:installationId/power',
} as const

/**
 * `redirectFrom` when it is a path on this origin (never another site: no scheme, no `//host`,
 * no backslash tricks) and not the login page itself; null otherwise.
 */
export function safeRedirect(value: string | null | undefined, origin: string = window.location.origin): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null
  try {
    const url = new URL(value, origin)
    if (url.origin !== origin) return null
    if (url.pathname === paths.login || url.pathname.startsWith(`${paths.login}/`)) return null
    return url.pathname + url.search + url.hash
  } catch {
    return null
  }
}

/** The same sub-page of another installation: /facility/1/power → /facility/2/power. */
export function switchFacilityPath(pathname: string, installationId: number): string {
  const m = /^\/facility\/[^/]+(\/.*)?$/.exec(pathname)
  return paths.facility(installationId) + (m?.[1] ?? '')
}
