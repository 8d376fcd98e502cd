/**
 * API messages in the four languages (SPEC §5, §8 wording for en). A typed table rather than locale
 * files, so a missing translation is a compile error; the client's UI strings live in client/i18n.
 */
export const LANGS = ['en', 'de', 'fr', 'it'] as const
export type Lang = (typeof LANGS)[number]

const M = {
  required: {
    en: 'The field is required.',
    de: 'Das Feld ist erforderlich.',
    fr: 'Le champ est obligatoire.',
    it: 'Il campo è obbligatorio.',
  },
  invalidEmail: {
    en: 'The field is not a valid email address',
    de: 'Das Feld ist keine gültige E-Mail-Adresse',
    fr: "Le champ n'est pas une adresse e-mail valide",
    it: 'Il campo non è un indirizzo e-mail valido',
  },
  invalidValue: {
    en: 'The value is not valid.',
    de: 'Der Wert ist ungültig.',
    fr: "La valeur n'est pas valide.",
    it: 'Il valore non è valido.',
  },
  badCredentials: {
    en: 'No active account found with the given credentials',
    de: 'Kein aktives Konto mit diesen Anmeldedaten gefunden',
    fr: 'Aucun compte actif ne correspond à ces identifiants',
    it: 'Nessun account attivo trovato con queste credenziali',
  },
  tooManyAttempts: {
    en: 'Too many failed sign-in attempts. Try again in {{minutes}} minutes.',
    de: 'Zu viele fehlgeschlagene Anmeldeversuche. Versuchen Sie es in {{minutes}} Minuten erneut.',
    fr: 'Trop de tentatives de connexion échouées. Réessayez dans {{minutes}} minutes.',
    it: 'Troppi tentativi di accesso falliti. Riprova tra {{minutes}} minuti.',
  },
  tokenInvalid: {
    en: 'Token is invalid or expired',
    de: 'Token ist ungültig oder abgelaufen',
    fr: 'Le jeton est invalide ou a expiré',
    it: 'Il token non è valido o è scaduto',
  },
  notAuthenticated: {
    en: 'Authentication credentials were not provided.',
    de: 'Es wurden keine Anmeldedaten angegeben.',
    fr: "Les informations d'authentification n'ont pas été fournies.",
    it: 'Le credenziali di autenticazione non sono state fornite.',
  },
  forbidden: {
    en: 'You do not have permission to perform this action.',
    de: 'Sie haben keine Berechtigung für diese Aktion.',
    fr: "Vous n'avez pas la permission d'effectuer cette action.",
    it: 'Non hai il permesso di eseguire questa azione.',
  },
  notFound: { en: 'Not found.', de: 'Nicht gefunden.', fr: 'Introuvable.', it: 'Non trovato.' },
  noInstallationId: {
    en: 'No installationId',
    de: 'No installationId',
    fr: 'No installationId',
    it: 'No installationId',
  },
  unlockStation: {
    en: 'Contact your facility administrator to unlock the charging station',
    de: 'Wenden Sie sich an Ihre Anlagenverwaltung, um die Ladestation zu entsperren',
    fr: "Contactez l'administrateur de votre installation pour déverrouiller la borne de recharge",
    it: "Contatta l'amministratore della struttura per sbloccare la stazione di ricarica",
  },
  serverError: {
    en: 'Something went wrong.',
    de: 'Etwas ist schiefgelaufen.',
    fr: "Une erreur s'est produite.",
    it: 'Qualcosa è andato storto.',
  },
  upstreamUnavailable: {
    en: 'The service is temporarily unavailable. Try again shortly.',
    de: 'Der Dienst ist vorübergehend nicht verfügbar. Versuchen Sie es gleich noch einmal.',
    fr: 'Le service est temporairement indisponible. Réessayez dans un instant.',
    it: 'Il servizio non è temporaneamente disponibile. Riprova tra poco.',
  },
  tooManyStreams: {
    en: 'Too many live connections are open. Close other tabs or displays and try again shortly.',
    de: 'Zu viele Live-Verbindungen sind offen. Schliessen Sie andere Tabs oder Anzeigen und versuchen Sie es gleich noch einmal.',
    fr: "Trop de connexions en direct sont ouvertes. Fermez d'autres onglets ou écrans et réessayez dans un instant.",
    it: 'Troppe connessioni live sono aperte. Chiudi altre schede o schermi e riprova tra poco.',
  },
  ticketInvalid: {
    en: 'The live ticket is invalid, expired or already used. Request a new one.',
    de: 'Das Live-Ticket ist ungültig, abgelaufen oder bereits verwendet. Fordern Sie ein neues an.',
    fr: 'Le ticket live est invalide, expiré ou déjà utilisé. Demandez-en un nouveau.',
    it: 'Il ticket live non è valido, è scaduto o è già stato usato. Richiedine uno nuovo.',
  },
} satisfies Record<string, Record<Lang, string>>

export type MessageKey = keyof typeof M

/** The message `key` in `lang` with `{{name}}` placeholders filled. */
export function message(key: MessageKey, lang: Lang, params: Record<string, string | number> = {}): string {
  return M[key][lang].replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(params[k] ?? ''))
}

/** Pick en, de, fr or it from an Accept-Language header (first supported tag wins; default en). */
export function pickLang(header: string | undefined): Lang {
  if (!header) return 'en'
  const tags = header
    .split(',')
    .map((part) => {
      const [tag, q] = part.trim().split(';q=')
      return { tag: tag.toLowerCase().slice(0, 2), q: q === undefined ? 1 : Number(q) }
    })
    .sort((a, b) => b.q - a.q)
  return (tags.find((t) => (LANGS as readonly string[]).includes(t.tag))?.tag as Lang) ?? 'en'
}
