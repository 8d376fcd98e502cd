import type { Lang } from '../lib/messages.ts'
import { ACCESS_SUMMARIES } from './openapi-texts/access.ts'
import { BILLING_SUMMARIES } from './openapi-texts/billing.ts'
import { CHARGING_SUMMARIES } from './openapi-texts/charging.ts'
import { FIELD_DESCRIPTIONS } from './openapi-texts/fields.ts'
import { INSTALLATION_SUMMARIES } from './openapi-texts/installations.ts'
import type { Translations } from './openapi-texts/translations.ts'

/**
 * The texts of the OpenAPI document (GET /api/swagger.json?lang=…, SPEC §7) in the four languages. The
 * document is built in English; {@link translate} swaps every `summary` and `description` that is an
 * English text here or in the tables of ./openapi-texts/ (operation summaries by API family, parameter and
 * property descriptions) for its translation (docs/decisions.md "API: the OpenAPI document in four languages").
 */
const T = {
  info: {
    en: 'The REST API of Cockpit: installations, charging stations, RFID cards, timers, charging sessions, meters, statistics, rates, reports, users, permissions and payments. Authenticate with POST /api/authentication/token/ and send the access token as `Authorization: Bearer <token>`. The installation scope comes from the `installation-id` header or the `installation` query parameter. Messages follow the Accept-Language header (en, de, fr, it).',
    de: 'Die REST-API von Cockpit: Anlagen, Ladestationen, RFID-Karten, Timer, Ladevorgänge, Zähler, Statistiken, Tarife, Berichte, Benutzer, Berechtigungen und Zahlungen. Anmelden mit POST /api/authentication/token/ und das Zugriffstoken als `Authorization: Bearer <token>` senden. Die Anlage kommt aus dem Header `installation-id` oder dem Abfrageparameter `installation`. Meldungen folgen dem Header Accept-Language (en, de, fr, it).',
    fr: "L'API REST de Cockpit : installations, bornes de recharge, cartes RFID, minuteries, sessions de recharge, compteurs, statistiques, tarifs, rapports, utilisateurs, autorisations et paiements. S'authentifier avec POST /api/authentication/token/ et envoyer le jeton d'accès comme `Authorization: Bearer <token>`. L'installation provient de l'en-tête `installation-id` ou du paramètre `installation`. Les messages suivent l'en-tête Accept-Language (en, de, fr, it).",
    it: "L'API REST di Cockpit: impianti, stazioni di ricarica, carte RFID, timer, sessioni di ricarica, contatori, statistiche, tariffe, report, utenti, autorizzazioni e pagamenti. Autenticarsi con POST /api/authentication/token/ e inviare il token di accesso come `Authorization: Bearer <token>`. L'impianto viene dall'intestazione `installation-id` o dal parametro `installation`. I messaggi seguono l'intestazione Accept-Language (en, de, fr, it).",
  },
  bearer: {
    en: 'The access token (JWT, valid 5 minutes) from POST /api/authentication/token/ or …/refresh/.',
    de: 'Das Zugriffstoken (JWT, 5 Minuten gültig) von POST /api/authentication/token/ oder …/refresh/.',
    fr: "Le jeton d'accès (JWT, valable 5 minutes) de POST /api/authentication/token/ ou …/refresh/.",
    it: "Il token di accesso (JWT, valido 5 minuti) da POST /api/authentication/token/ o …/refresh/.",
  },
  badRequest: {
    en: 'Invalid input: the messages per field ({"field": ["message"]}), or {"detail": "…"} (e.g. "No installationId").',
    de: 'Ungültige Eingabe: die Meldungen je Feld ({"field": ["Meldung"]}) oder {"detail": "…"} (z. B. "No installationId").',
    fr: 'Saisie invalide : les messages par champ ({"field": ["message"]}) ou {"detail": "…"} (p. ex. "No installationId").',
    it: 'Input non valido: i messaggi per campo ({"field": ["messaggio"]}) oppure {"detail": "…"} (ad es. "No installationId").',
  },
  unauthorized: {
    en: 'Not authenticated: the access token is missing, invalid or expired.',
    de: 'Nicht angemeldet: das Zugriffstoken fehlt, ist ungültig oder abgelaufen.',
    fr: "Non authentifié : le jeton d'accès est absent, invalide ou expiré.",
    it: 'Non autenticato: il token di accesso manca, non è valido o è scaduto.',
  },
  forbidden: {
    en: 'Forbidden: the caller lacks the right for this action.',
    de: 'Verboten: dem Aufrufer fehlt das Recht für diese Aktion.',
    fr: "Interdit : l'appelant n'a pas le droit pour cette action.",
    it: "Vietato: il chiamante non ha il diritto per questa azione.",
  },
  notFound: {
    en: 'Not found, or not visible to the caller.',
    de: 'Nicht gefunden oder für den Aufrufer nicht sichtbar.',
    fr: "Introuvable, ou non visible pour l'appelant.",
    it: 'Non trovato, o non visibile al chiamante.',
  },
  notFoundField: {
    en: 'Not found, or not visible to the caller: {"detail": "…"}, or {"field": ["…"]} when a field of the body names something not found here.',
    de: 'Nicht gefunden oder für den Aufrufer nicht sichtbar: {"detail": "…"} oder {"field": ["…"]}, wenn ein Feld des Inhalts etwas nennt, das es hier nicht gibt.',
    fr: "Introuvable, ou non visible pour l'appelant : {\"detail\": \"…\"}, ou {\"field\": [\"…\"]} quand un champ du corps nomme quelque chose d'introuvable ici.",
    it: 'Non trovato, o non visibile al chiamante: {"detail": "…"}, oppure {"field": ["…"]} quando un campo del corpo nomina qualcosa che qui non esiste.',
  },
  conflict: {
    en: 'Conflict with the current state (e.g. the installation is archived, or the entry is not empty): {"detail": "…"} or {"field": ["…"]}.',
    de: 'Konflikt mit dem aktuellen Zustand (z. B. die Anlage ist archiviert oder der Eintrag ist nicht leer): {"detail": "…"} oder {"field": ["…"]}.',
    fr: "Conflit avec l'état actuel (p. ex. l'installation est archivée, ou l'entrée n'est pas vide) : {\"detail\": \"…\"} ou {\"field\": [\"…\"]}.",
    it: 'Conflitto con lo stato attuale (ad es. l\'impianto è archiviato, o la voce non è vuota): {"detail": "…"} oppure {"field": ["…"]}.',
  },
  unprocessable: {
    en: 'Well-formed but not allowed (e.g. an object moved below itself): {"field": ["…"]}.',
    de: 'Formal korrekt, aber nicht zulässig (z. B. ein Objekt unter sich selbst verschoben): {"field": ["…"]}.',
    fr: 'Bien formé mais non autorisé (p. ex. un objet déplacé sous lui-même) : {"field": ["…"]}.',
    it: 'Ben formato ma non consentito (ad es. un oggetto spostato sotto sé stesso): {"field": ["…"]}.',
  },
  sessionConflict: {
    en: 'The session is not in a state that allows this (still charging, already paid, or already ended).',
    de: 'Der Ladevorgang ist nicht in einem Zustand, der dies erlaubt (lädt noch, bereits bezahlt oder bereits beendet).',
    fr: 'La recharge n’est pas dans un état qui le permet (en cours, déjà payée ou déjà terminée).',
    it: 'La ricarica non è in uno stato che lo consente (ancora in corso, già pagata o già terminata).',
  },
  tooManyHeavy: {
    en: 'Too many of your heavy requests (statistics, exports, report dispatch) are running or waiting: try again after Retry-After seconds.',
    de: 'Zu viele Ihrer aufwendigen Anfragen (Statistiken, Exporte, Berichtsversand) laufen oder warten: erneut versuchen nach Retry-After Sekunden.',
    fr: 'Trop de vos requêtes lourdes (statistiques, exports, envoi de rapports) sont en cours ou en attente : réessayer après Retry-After secondes.',
    it: 'Troppe Sue richieste onerose (statistiche, esportazioni, invio di report) sono in corso o in attesa: riprovare dopo Retry-After secondi.',
  },
  serverError: {
    en: 'Server error (no internals are disclosed).',
    de: 'Serverfehler (ohne interne Details).',
    fr: 'Erreur du serveur (sans détails internes).',
    it: 'Errore del server (senza dettagli interni).',
  },
  noContent: { en: 'Done; no content.', de: 'Erledigt; kein Inhalt.', fr: 'Effectué ; aucun contenu.', it: 'Fatto; nessun contenuto.' },
  tag_auth: { en: 'Sign-in and token refresh.', de: 'Anmeldung und Token-Erneuerung.', fr: 'Connexion et renouvellement du jeton.', it: 'Accesso e rinnovo del token.' },
  tag_accounts: {
    en: 'Password reset, self-registration and e-mail verification (no authentication).',
    de: 'Passwort zurücksetzen, Selbstregistrierung und E-Mail-Bestätigung (ohne Anmeldung).',
    fr: 'Réinitialisation du mot de passe, inscription et vérification de l’e-mail (sans authentification).',
    it: 'Reimpostazione della password, registrazione e verifica dell’e-mail (senza autenticazione).',
  },
  tag_users: { en: 'The own account: details, e-mail, password.', de: 'Das eigene Konto: Angaben, E-Mail, Passwort.', fr: 'Son propre compte : données, e-mail, mot de passe.', it: 'Il proprio account: dati, e-mail, password.' },
  tag_user_management: {
    en: 'Users of an installation, memberships and roles (admins, superusers).',
    de: 'Benutzer einer Anlage, Mitgliedschaften und Rollen (Administratoren, Superuser).',
    fr: "Utilisateurs d'une installation, adhésions et rôles (administrateurs, superutilisateurs).",
    it: "Utenti di un impianto, appartenenze e ruoli (amministratori, superutenti).",
  },
  tag_permissions: { en: 'Permission entries per user and object.', de: 'Berechtigungen je Benutzer und Objekt.', fr: 'Autorisations par utilisateur et objet.', it: 'Autorizzazioni per utente e oggetto.' },
  tag_legal: {
    en: 'Terms and privacy acceptance, countries and cities, the mail outbox.',
    de: 'Zustimmung zu AGB und Datenschutz, Länder und Orte, der Mail-Ausgang.',
    fr: 'Acceptation des conditions et de la confidentialité, pays et villes, la file des e-mails.',
    it: 'Accettazione di condizioni e privacy, paesi e città, la coda delle e-mail.',
  },
  tag_installations: { en: 'Installations, their state and access.', de: 'Anlagen, ihr Zustand und Zugriff.', fr: 'Installations, leur état et accès.', it: 'Impianti, il loro stato e accesso.' },
  tag_live: { en: 'Live power flow and overview.', de: 'Aktueller Energiefluss und Übersicht.', fr: "Flux d'énergie en direct et aperçu.", it: 'Flusso di energia in tempo reale e panoramica.' },
  tag_stations: { en: 'Charging stations, their journal and modes.', de: 'Ladestationen, ihr Journal und Modi.', fr: 'Bornes de recharge, leur journal et modes.', it: 'Stazioni di ricarica, il loro giornale e modalità.' },
  tag_rfids: { en: 'RFID cards, learning mode and card orders.', de: 'RFID-Karten, Lernmodus und Kartenbestellungen.', fr: "Cartes RFID, mode d'apprentissage et commandes de cartes.", it: 'Carte RFID, modalità di apprendimento e ordini di carte.' },
  tag_timers: { en: 'Timers that switch charging modes.', de: 'Timer, die Lademodi umschalten.', fr: 'Minuteries qui changent les modes de recharge.', it: 'Timer che cambiano le modalità di ricarica.' },
  tag_sessions: { en: 'Charging sessions and their PDF invoices.', de: 'Ladevorgänge und ihre PDF-Rechnungen.', fr: 'Sessions de recharge et leurs factures PDF.', it: 'Sessioni di ricarica e le loro fatture PDF.' },
  tag_audit: { en: 'The audit trail: who changed what in provisioning and permissions, and when.', de: 'Das Änderungsprotokoll: wer wann was an Einrichtung und Berechtigungen geändert hat.', fr: "Le journal d'audit : qui a modifié quoi dans la configuration et les autorisations, et quand.", it: "Il registro di audit: chi ha modificato cosa nella configurazione e nei permessi, e quando." },
  tag_objects: { en: 'Objects and meters.', de: 'Objekte und Zähler.', fr: 'Objets et compteurs.', it: 'Oggetti e contatori.' },
  tag_statistics: { en: 'Energy, water and heat statistics.', de: 'Energie-, Wasser- und Wärmestatistiken.', fr: "Statistiques d'énergie, d'eau et de chaleur.", it: 'Statistiche di energia, acqua e calore.' },
  tag_rates: { en: 'Power, water and heat rates; the tariff in force.', de: 'Strom-, Wasser- und Wärmetarife; der gültige Tarif.', fr: "Tarifs d'électricité, d'eau et de chaleur ; le tarif en vigueur.", it: 'Tariffe di energia, acqua e calore; la tariffa in vigore.' },
  tag_support: { en: 'Support tickets; replies by e-mail land on them.', de: 'Support-Tickets; Antworten per E-Mail landen darin.', fr: "Tickets de support ; les réponses par e-mail y arrivent.", it: "Ticket di supporto; le risposte via e-mail vi arrivano." },
  tag_shortcuts: { en: "A person's shortcuts to screens and objects.", de: 'Verknüpfungen einer Person zu Ansichten und Objekten.', fr: "Raccourcis d'une personne vers des écrans et des objets.", it: 'Scorciatoie di una persona verso schermate e oggetti.' },
  tag_reports: { en: 'Reports and their dispatch (CSV, XLSX).', de: 'Berichte und ihr Versand (CSV, XLSX).', fr: 'Rapports et leur envoi (CSV, XLSX).', it: 'Report e il loro invio (CSV, XLSX).' },
  tag_ingest: { en: 'Readings of real meters sent with a device key, and the device keys of an installation.', de: 'Messwerte echter Zähler, mit einem Geräteschlüssel gesendet, und die Geräteschlüssel einer Anlage.', fr: "Relevés de vrais compteurs envoyés avec une clé d'appareil, et les clés d'appareil d'une installation.", it: "Letture di contatori reali inviate con una chiave dispositivo, e le chiavi dispositivo di un impianto." },
  tag_payments: { en: 'Payment methods, checkout and charging due sessions.', de: 'Zahlungsmittel, Bezahlvorgang und Abrechnung fälliger Ladevorgänge.', fr: 'Moyens de paiement, paiement et facturation des sessions dues.', it: 'Metodi di pagamento, checkout e addebito delle sessioni dovute.' },
} satisfies Record<string, Record<Lang, string>>

/** The English texts by key, for building the document. */
export const TEXTS = Object.fromEntries(Object.entries(T).map(([k, v]) => [k, v.en])) as { [K in keyof typeof T]: string }

/** Tags in document order with the URL pattern that assigns an /api route to each (first match wins). */
export const TAGS: [string, RegExp][] = [
  ['auth', /^\/api\/authentication\//],
  ['ingest', /(^\/api\/ingest\/|\/device_keys\/)/],
  ['accounts', /^\/api\/(password-reset\/|users\/(password-reset|register|can-register|user-verification|invitation))/],
  ['payments', /^\/api\/(payments\/|users\/:id\/payment-info)/],
  ['user_management', /^\/api\/(cockpit\/users\/|users\/create\/|users\/:userId\/)/],
  ['permissions', /\/permissions$/],
  ['audit', /\/audit\/$/],
  ['legal', /^\/api\/cockpit\/(legal|countries|mail)/],
  ['users', /^\/api\/users\//],
  ['timers', /\/timers\//],
  ['rates', /(\/rates\/|electricity-tariff)/],
  ['reports', /\/reports\//],
  ['statistics', /^\/api\/statistics\//],
  ['sessions', /^\/api\/rfids-charge\//],
  ['support', /(support-tickets|send-support-email)/],
  ['shortcuts', /\/shortcuts\//],
  ['rfids', /(rfids|learned_rfid|send-ordering-new-rfid)/],
  ['live', /(^\/api\/metrics\/|\/(flow|overview|energy_return)$)/],
  ['stations', /(charging_stations|ladestation)/],
  ['objects', /\/(objects|meters|batteries|pv|heat|water|categories)/],
  ['installations', /./],
]

/** The routes' own texts (summaries, parameter and property descriptions), English text → translations. */
export const ROUTE_TEXTS: Translations = { ...ACCESS_SUMMARIES, ...INSTALLATION_SUMMARIES, ...CHARGING_SUMMARIES, ...BILLING_SUMMARIES, ...FIELD_DESCRIPTIONS }

const byEnglish = new Map<string, Partial<Record<Lang, string>>>([...Object.values(T).map((t) => [t.en, t] as const), ...Object.entries(ROUTE_TEXTS)])

/**
 * A deep copy of the OpenAPI `document` with every known English `summary` and `description` in `lang`
 * (a text no table knows stays English; tests/integration/openapi.test.ts finds it).
 */
export function translate<D>(document: D, lang: Lang): D {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk)
    if (!v || typeof v !== 'object') return v
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, (k === 'description' || k === 'summary') && typeof x === 'string' ? (byEnglish.get(x)?.[lang] ?? x) : walk(x)]),
    )
  }
  return walk(document) as D
}
