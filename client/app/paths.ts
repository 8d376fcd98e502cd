/** Route paths of the client (SPEC §2). */
export const paths = {
  root: '/',
  login: '/login',
  forgotPassword: '/login/forgot',
  resetPassword: '/login/reset',
  register: '/login/register',
  verify: '/login/verify',
  emailUndo: '/login/email-undo',
  /** Confirming a new sign-in address from the link mailed to it: `/login/email-confirm?token=…`. */
  emailConfirm: '/login/email-confirm',
  /** Accepting an invitation of one's existing account to an installation: `/login/invitation?token=…`. */
  invitation: '/login/invitation',
  /** The first start: the setup link's token follows in the fragment, `/setup#…`. */
  setup: '/setup',
  facility: (installationId: number | string) => `/facility/${installationId}`,
  settings: (installationId: number | string) => `/facility/${installationId}/settings`,
  paymentMethods: (installationId: number | string) => `/facility/${installationId}/settings/payment-method`,
  users: (installationId: number | string) => `/facility/${installationId}/management/users`,
  user: (installationId: number | string, userId: number | string) => `/facility/${installationId}/management/users/${userId}`,
  userPermissions: (installationId: number | string, userId: number | string) => `/facility/${installationId}/management/users/${userId}/permissions`,
  power: (installationId: number | string) => `/facility/${installationId}/power`,
  /** One charging station on the Power page (its status, timer, journal … tabs). */
  station: (installationId: number | string, stationId: number | string) => `/facility/${installationId}/power/stations/${stationId}`,
  rfids: (installationId: number | string) => `/facility/${installationId}/rfids`,
  sessions: (installationId: number | string) => `/facility/${installationId}/sessions`,
  /** Charging sessions held for an admin's review. */
  sessionReview: (installationId: number | string) => `/facility/${installationId}/sessions/review`,
  charts: (installationId: number | string) => `/facility/${installationId}/charts`,
  pricing: (installationId: number | string) => `/facility/${installationId}/pricing`,
  rates: (installationId: number | string) => `/facility/${installationId}/rates`,
  reports: (installationId: number | string) => `/facility/${installationId}/reports`,
  legal: (installationId: number | string) => `/facility/${installationId}/management/legal`,
  overview: (installationId: number | string) => `/facility/${installationId}/overview`,
  installationView: (installationId: number | string) => `/facility/${installationId}/installation-view`,
  support: (installationId: number | string) => `/facility/${installationId}/support`,
  supportTicket: (installationId: number | string, conversationId: number | string) => `/facility/${installationId}/support/${conversationId}`,
  supportInbox: (installationId: number | string) => `/facility/${installationId}/support/inbox`,
  displays: (installationId: number | string) => `/facility/${installationId}/management/displays`,
  installationSettings: (installationId: number | string) => `/facility/${installationId}/management/installation`,
  objects: (installationId: number | string) => `/facility/${installationId}/management/objects`,
  meters: (installationId: number | string) => `/facility/${installationId}/management/meters`,
  stationSetup: (installationId: number | string) => `/facility/${installationId}/management/charging-stations`,
  loadManagement: (installationId: number | string) => `/facility/${installationId}/management/load-management`,
  /** The operator's list of all installations (superusers), outside any installation. */
  installations: '/operator/installations',
  /** Display mode: the key follows in the fragment, `/display#cdk_…`. */
  display: '/display',
} as const

/** Route patterns for wouter. */
export const patterns = {
  login: '/login',
  forgotPassword: '/login/forgot',
  resetPassword: '/login/reset',
  register: '/login/register',
  verify: '/login/verify',
  emailUndo: '/login/email-undo',
  emailConfirm: '/login/email-confirm',
  invitation: '/login/invitation',
  setup: '/setup',
  facilityAny: '/facility/:installationId/*?',
  facility: '/facility/:installationId',
  settings: '/facility/:installationId/settings',
  paymentMethods: '/facility/:installationId/settings/payment-method',
  users: '/facility/:installationId/management/users',
  user: '/facility/:installationId/management/users/:userId',
  userPermissions: '/facility/:installationId/management/users/:userId/permissions',
  power: '/facility/:installationId/power',
  rfids: '/facility/:installationId/rfids',
  sessions: '/facility/:installationId/sessions',
  sessionReview: '/facility/:installationId/sessions/review',
  sessionDetail: '/facility/:installationId/sessions/:sessionId',
  station: '/facility/:installationId/power/stations/:stationId',
  charts: '/facility/:installationId/charts',
  pricing: '/facility/:installationId/pricing',
  rates: '/facility/:installationId/rates',
  reports: '/facility/:installationId/reports',
  legal: '/facility/:installationId/management/legal',
  overview: '/facility/:installationId/overview',
  installationView: '/facility/:installationId/installation-view',
  support: '/facility/:installationId/support',
  supportInbox: '/facility/:installationId/support/inbox',
  supportTicket: '/facility/:installationId/support/:conversationId',
  displays: '/facility/:installationId/management/displays',
  installationSettings: '/facility/:installationId/management/installation',
  objects: '/facility/:installationId/management/objects',
  meters: '/facility/:installationId/management/meters',
  stationSetup: '/facility/:installationId/management/charging-stations',
  loadManagement: '/facility/:installationId/management/load-management',
  installations: '/operator/installations',
  display: '/display',
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
