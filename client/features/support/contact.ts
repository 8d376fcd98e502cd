/**
 * Support's contact (SPEC §2 "hotline, e-mail contact"). The product gives no numbers; these are the
 * demo's, kept in one place for an operator to change (docs/decisions.md).
 */
export const SUPPORT_CONTACT = {
  hotline: '+41 44 000 00 00',
  email: 'support@cockpit.local',
} as const

/** FAQ entries and manual chapters (texts in locales/<lang>/support.json under faq.<key> and manual.<key>). */
export const FAQ_KEYS = ['noCharge', 'rfidLost', 'invoice', 'offline'] as const
export const MANUAL_KEYS = ['charging', 'rfids', 'sessions', 'settings'] as const
