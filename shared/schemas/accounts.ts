import { z } from 'zod'
import { DateTime, IdNumber, Text } from './common.ts'
import { COUNTRIES } from '../rules/regions.ts'

/** POST /api/password-reset/ and /api/users/password-reset/ body (SPEC §7): the account's e-mail. */
export const ResetRequest = z.object({ email: z.string().trim().min(1).max(254).pipe(z.email()) })
/** The answer to a reset request, the same whether or not the address exists (SPEC §8 text in `detail`). */
export const ResetRequested = z.object({ status: z.literal('OK'), detail: z.string() })
/** POST /api/password-reset/validate_token/ body; 200 `{status: "OK"}` only for a usable token, else 404. */
export const ResetToken = z.object({ token: z.string().trim().min(1).max(200) })
/**
 * POST /api/password-reset/confirm/ body: the token from the mail and the new password (SPEC §5 rule);
 * `password_confirm`, when sent, must equal `password` ("The entered passwords do not match").
 */
export const ResetConfirm = z.object({
  token: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(1000),
  password_confirm: z.string().max(1000).optional(),
})
/** PUT /api/users/password/ body (SPEC §7): the current and the new password. */
export const PasswordChange = z.object({
  old_password: z.string().min(1).max(1000),
  new_password: z.string().min(1).max(1000),
  new_password_confirm: z.string().max(1000).optional(),
})

/** Countries of SPEC §9, in that order (shared/rules/regions.ts, zod-free for the browser). */
export { COUNTRIES }
/** UI languages of SPEC §9. */
export const ACCOUNT_LANGUAGES = ['en', 'de', 'fr', 'it'] as const
/**
 * Language and region format (SPEC §9) as stored in ietf_lang_tag: `<language>-<country>`, e.g. "de-CH";
 * the region picks the date formats (DE, AT, CH, FR dd.MM.yy; IT dd/MM/yy; GB, US MM/dd/yy).
 */
export const LangTag = z.string().regex(/^(en|de|fr|it)(-(CH|DE|AT|IT|FR|GB|US))?$/)

const text = (max: number) => Text(max)
/**
 * PUT /api/users/{id}/ body (SPEC §3 user details): first and last name required; the others optional
 * ('' clears them). PATCH takes any subset. title: "mr" | "ms" | null (shown Herr/Frau in German).
 */
export const UserDetails = z.object({
  title: z.enum(['mr', 'ms']).nullable().optional(),
  first_name: text(150).min(1),
  last_name: text(150).min(1),
  address: text(200).optional(),
  zip_code: z.string().trim().regex(/^[A-Za-z0-9 -]{0,12}$/).optional(),
  city: text(120).optional(),
  country: z.union([z.enum(COUNTRIES), z.literal('')]).optional(),
  telephone: z.string().trim().regex(/^[+0-9 ()/.-]{0,30}$/).optional(),
  company: text(200).optional(),
  comment: Text(2000, { multiline: true }).optional(),
  /** SPEC §3: a short label shown in brackets after the name (e.g. the flat); 255 characters at most. */
  description: text(255).optional(),
  ietf_lang_tag: LangTag.optional(),
})
export type UserDetails = z.infer<typeof UserDetails>
/** PATCH /api/users/{id}/ body: any subset of {@link UserDetails}. */
export const UserDetailsPatch = UserDetails.partial()
/**
 * PUT /api/users/{id}/email body. `password`: the caller's current password, required when changing
 * one's own address (400 `{password: [...]}` without it or when wrong); an admin changing another's
 * address leaves it out.
 */
export const EmailChange = z.object({ email: z.string().trim().min(1).max(254).pipe(z.email()), password: z.string().max(1024).optional() })
/** POST /api/users/email/undo/ body: the token from the notice mailed to the previous address. */
export const EmailUndo = z.object({ token: z.string().max(200) })

/**
 * A pending invitation of an existing account to an installation (GET /api/cockpit/users/invitations/;
 * docs/decisions.md "Accounts: pending invitations"): the address the admin typed, the invited role, when it
 * was (last) sent and until when its link works (ISO 8601), and whether that time has passed.
 */
export const PendingInvitation = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(['installation_admin', 'installation_user']),
  sent_at: z.string(),
  expires_at: z.string(),
  expired: z.boolean(),
})
export type PendingInvitation = z.infer<typeof PendingInvitation>

/** Role filter of GET /api/cockpit/users/ (SPEC §6: including all). */
export const UserRoleFilter = z.enum(['all', 'superuser', 'installation_admin', 'installation_user'])
export type UserRoleFilter = z.infer<typeof UserRoleFilter>
/** A role within an installation. */
export const MemberRole = z.enum(['installation_admin', 'installation_user'])

/**
 * A user as admins see them (GET /api/cockpit/users/): SPEC §3 fields, `role` (superuser, else
 * installation_admin when admin in any of the caller's installations, else installation_user) and the
 * memberships in the caller's installations. Superusers shown to a caller who is not one carry only
 * id, names, e-mail, role and state (the other details '' or null, no memberships).
 */
export const ManagedUser = z.object({
  id: z.number().int(),
  email: z.string(),
  title: z.enum(['mr', 'ms']).nullable(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  is_active: z.boolean(),
  is_superuser: z.boolean(),
  deactivation_datetime: z.string().nullable(),
  ietf_lang_tag: z.string(),
  address: z.string(),
  zip_code: z.string(),
  city: z.string(),
  country: z.string(),
  telephone: z.string(),
  company: z.string(),
  comment: z.string(),
  /** SPEC §3, shown in brackets after the name; '' when not given. */
  description: z.string(),
  last_login: z.string().nullable(),
  role: z.enum(['superuser', 'installation_admin', 'installation_user']),
  installations: z.array(z.object({ id: z.number().int(), role: MemberRole })),
})
export type ManagedUser = z.infer<typeof ManagedUser>

/**
 * POST /api/users/create/ body (installation in the header or query): e-mail, names, role in the
 * installation, optional details; `send_welcome` mails the welcome link at once.
 */
export const NewUser = UserDetails.extend({
  email: z.string().trim().min(1).max(254).pipe(z.email()),
  role: MemberRole.default('installation_user'),
  send_welcome: z.boolean().optional(),
})
export type NewUser = z.infer<typeof NewUser>

/** POST /api/users/{user_id}/active body (SPEC §4): `date` (ISO 8601) only with active false. */
export const ActiveChange = z.object({ active: z.boolean(), date: DateTime.nullable().optional() })
/** PUT/PATCH /api/cockpit/users/{user_id}/superuser body: grant or withdraw superuser rights. */
export const SuperuserChange = z.object({ is_superuser: z.boolean() })
/** POST /api/cockpit/users/{user_id}/installations/ body; PUT/PATCH …/{installation_id} take `role` only. */
export const MembershipAdd = z.object({ installation_id: IdNumber, role: MemberRole.default('installation_user') })
export const MembershipChange = z.object({ role: MemberRole })

/**
 * POST /api/users/register/ body (installation in the query or header): the new account's address,
 * names and password (SPEC §5 rule), and `terms_accepted` (must be true: terms and privacy policy).
 */
export const Registration = z.object({
  email: z.string().trim().min(1).max(254).pipe(z.email()),
  first_name: Text(150).min(1),
  last_name: Text(150).min(1),
  password: z.string().min(1).max(1000),
  title: z.enum(['mr', 'ms']).nullable().optional(),
  ietf_lang_tag: LangTag.optional(),
  terms_accepted: z.boolean().optional(),
})
export type Registration = z.infer<typeof Registration>
