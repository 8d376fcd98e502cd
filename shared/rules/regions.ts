/**
 * The countries of SPEC §9, in that order: a user's country, the region part of the language and region
 * setting (date formats, shared/rules/formats.ts) and an RFID order's country. A plain list without zod:
 * the browser imports it on every screen through the formats, and the zod schemas of
 * shared/schemas/accounts.ts would bring zod into Power's and Login's first load.
 */
export const COUNTRIES = ['CH', 'DE', 'AT', 'IT', 'FR', 'GB', 'US'] as const
export type Country = (typeof COUNTRIES)[number]
