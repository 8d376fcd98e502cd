/**
 * Parse a number typed in the UI language (SPEC §5: locale aware; empty gives NaN): accepts "0.275",
 * "0,275" and Swiss "1'234.50"; anything else is NaN.
 */
export function parseLocaleNumber(text: string): number {
  const s = text.trim().replace(/['’\s\u00a0\u202f]/g, '')
  if (!s) return NaN
  const normalized = s.includes(',') && !s.includes('.') ? s.replace(',', '.') : s.replace(/,/g, '')
  return /^-?\d+(\.\d+)?$|^-?\.\d+$/.test(normalized) ? Number(normalized) : NaN
}
