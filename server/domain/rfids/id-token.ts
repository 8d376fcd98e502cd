import { sql, type RawBuilder } from 'kysely'

/**
 * The condition "the card's tag is `tag`", without regard to case: an RFID tag is an OCPP 1.6 IdToken,
 * a CiString20Type (OCPP 1.6 IdToken, a CiString20Type: case-insensitive), so a charger that sends
 * `04a1b2…` means the card registered as `04A1B2…`. For rfids queries (column `tag`, or `column`).
 */
export function tagIs(tag: string, column = 'tag'): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) = lower(${tag})`
}
