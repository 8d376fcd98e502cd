import { z } from 'zod'

/**
 * `{"detail": "…"}`: every non-field error (ARCHITECTURE §3; 400 "No installationId", 401, 403, 404, 429,
 * 5xx), the message in the caller's language (SPEC §8 message extraction reads `detail`).
 */
export const ErrorDetail = z.object({ detail: z.string() }).meta({ id: 'ErrorDetail', description: 'A non-field error: the message in the language of Accept-Language.' })

/**
 * `{"field": ["message", …]}`: a 400 validation answer (SPEC §5 wording), one entry per field (nested
 * fields joined by '.', whole-body errors under `non_field_errors`).
 */
export const FieldErrors = z
  .record(z.string(), z.array(z.string()))
  .meta({ id: 'FieldErrors', description: 'Validation errors: the messages of each field that was refused (non_field_errors for the body as a whole).' })

/** A 400 answer: field errors, or `{detail}` (e.g. "No installationId"). */
export const BadRequestBody = z.union([FieldErrors, ErrorDetail])
