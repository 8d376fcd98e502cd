import { message, type Lang, type MessageKey } from '../../lib/messages.ts'

/**
 * Why a reading was refused or set aside (server/domain/ingest/check.ts and service.ts): a message of
 * server/lib/messages.ts and its figures, so the answer and the meter's data-quality state are given in
 * the reader's language (SPEC §5: en, de, fr, it). Field names, measurands, units, numbers and times
 * stay as the device sent them.
 */
export interface Reason {
  key: MessageKey
  params: Record<string, string | number>
}

/** A {@link Reason}. */
export const reason = (key: MessageKey, params: Reason['params'] = {}): Reason => ({ key, params })

/** How a reason is kept (meter_status.quality_reason, meter_readings.flag): JSON of its key and figures. */
export const encodeReason = (r: Reason): string => JSON.stringify(r)

/**
 * A kept reason in `lang`. Reasons kept before they were keyed are English text and are given as they
 * are; so is anything that is not a known message.
 */
export function reasonText(kept: string, lang: Lang): string {
  if (!kept.startsWith('{')) return kept
  try {
    const r = JSON.parse(kept) as Partial<Reason>
    if (typeof r.key === 'string') return message(r.key, lang, r.params ?? {})
  } catch {
    // not a keyed reason
  }
  return kept
}

/** A reason in `lang` (the answer of POST /api/ingest/v1/readings, a log line in English). */
export const reasonIn = (r: Reason, lang: Lang): string => message(r.key, lang, r.params)
