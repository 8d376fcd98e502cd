import type { Lang } from '../../lib/messages.ts'

/**
 * A table of OpenAPI texts (operation summaries, parameter and property descriptions): the English text
 * as it stands in the route is the key, its translations the value. Every entry must name de, fr and it
 * (tsc fails otherwise); a text of the document missing from every table is found by
 * tests/integration/openapi.test.ts. Swiss usage, formal address (SPEC §7, docs/decisions.md).
 */
export type Translations = Record<string, Record<Exclude<Lang, 'en'>, string>>
