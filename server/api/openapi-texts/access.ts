import type { Translations } from './translations.ts'

/** Summaries of sign-in, accounts, users and their management, permissions, legal, audit, support and shortcuts (SPEC §7). */
export const ACCESS_SUMMARIES = {
  // auth
  'Sign in: an access and a refresh token, and the installation to open (?installation= picks one)': {
    de: 'Anmelden: ein Zugriffs- und ein Erneuerungstoken sowie die zu öffnende Anlage (?installation= wählt eine)',
    fr: "Se connecter : un jeton d'accès et un jeton de renouvellement, et l'installation à ouvrir (?installation= en choisit une)",
    it: "Accedere: un token di accesso e uno di rinnovo, e l'impianto da aprire (?installation= ne sceglie uno)",
  },
  'A new token pair for a refresh token (rotating; reuse revokes the family)': {
    de: 'Ein neues Tokenpaar für ein Erneuerungstoken (rotierend; erneute Verwendung widerruft die ganze Familie)',
    fr: 'Une nouvelle paire de jetons contre un jeton de renouvellement (rotatif ; sa réutilisation révoque toute la famille)',
    it: 'Una nuova coppia di token per un token di rinnovo (a rotazione; il riutilizzo revoca tutta la famiglia)',
  },
  "Sign out: revoke the refresh token's family and deny its access tokens (204 also when already revoked)": {
    de: 'Abmelden: die Familie des Erneuerungstokens widerrufen und ihre Zugriffstoken sperren (204 auch, wenn bereits widerrufen)',
    fr: "Se déconnecter : révoquer la famille du jeton de renouvellement et refuser ses jetons d'accès (204 aussi si déjà révoquée)",
    it: 'Disconnettersi: revocare la famiglia del token di rinnovo e rifiutarne i token di accesso (204 anche se già revocata)',
  },
  // accounts
  "Accept an invitation of one's existing account to an installation (the token from the mail)": {
    de: 'Eine Einladung des bestehenden Kontos in eine Anlage annehmen (das Token aus der E-Mail)',
    fr: "Accepter l'invitation de son compte existant à une installation (le jeton de l'e-mail)",
    it: "Accettare l'invito del proprio account esistente a un impianto (il token dell'e-mail)",
  },
  'Mail a password reset link (same answer whether or not the address exists)': {
    de: 'Einen Link zum Zurücksetzen des Passworts senden (dieselbe Antwort, ob die Adresse existiert oder nicht)',
    fr: "Envoyer un lien de réinitialisation du mot de passe (même réponse que l'adresse existe ou non)",
    it: "Inviare un link per reimpostare la password (stessa risposta che l'indirizzo esista o no)",
  },
  "Mail a password reset link with the installation's branding": {
    de: 'Einen Link zum Zurücksetzen des Passworts im Erscheinungsbild der Anlage senden',
    fr: "Envoyer un lien de réinitialisation du mot de passe aux couleurs de l'installation",
    it: "Inviare un link per reimpostare la password con l'immagine dell'impianto",
  },
  'Whether a reset token is usable': {
    de: 'Ob ein Token zum Zurücksetzen verwendbar ist',
    fr: 'Si un jeton de réinitialisation est utilisable',
    it: 'Se un token di reimpostazione è utilizzabile',
  },
  'Whether residents may register for the installation': {
    de: 'Ob sich Bewohnerinnen und Bewohner für die Anlage registrieren dürfen',
    fr: "Si les résidents peuvent s'inscrire à l'installation",
    it: "Se i residenti possono registrarsi per l'impianto",
  },
  'Register an account for the installation (mails a verification link)': {
    de: 'Ein Konto für die Anlage registrieren (sendet einen Bestätigungslink)',
    fr: "Créer un compte pour l'installation (envoie un lien de vérification)",
    it: "Registrare un account per l'impianto (invia un link di verifica)",
  },
  'Verify a registered e-mail address': {
    de: 'Eine registrierte E-Mail-Adresse bestätigen',
    fr: 'Vérifier une adresse e-mail enregistrée',
    it: 'Verificare un indirizzo e-mail registrato',
  },
  'Set a new password with a reset token': {
    de: 'Ein neues Passwort mit einem Token zum Zurücksetzen festlegen',
    fr: 'Définir un nouveau mot de passe avec un jeton de réinitialisation',
    it: 'Impostare una nuova password con un token di reimpostazione',
  },
  // user management
  "Users of the caller's installations (role filter; installation query or header)": {
    de: 'Benutzer der Anlagen des Aufrufers (Rollenfilter; Anlage als Abfrageparameter oder Header)',
    fr: "Utilisateurs des installations de l'appelant (filtre par rôle ; installation en paramètre ou en en-tête)",
    it: 'Utenti degli impianti del chiamante (filtro per ruolo; impianto come parametro o intestazione)',
  },
  'Users of one installation': { de: 'Benutzer einer Anlage', fr: "Utilisateurs d'une installation", it: 'Utenti di un impianto' },
  'One managed user': { de: 'Ein verwalteter Benutzer', fr: 'Un utilisateur géré', it: 'Un utente gestito' },
  'Create a user in the installation': { de: 'Einen Benutzer in der Anlage erstellen', fr: "Créer un utilisateur dans l'installation", it: "Creare un utente nell'impianto" },
  'Activate or deactivate a user (optionally from a date)': {
    de: 'Einen Benutzer aktivieren oder deaktivieren (wahlweise ab einem Datum)',
    fr: 'Activer ou désactiver un utilisateur (au besoin à partir d’une date)',
    it: 'Attivare o disattivare un utente (facoltativamente a partire da una data)',
  },
  'Send the welcome mail again': { de: 'Die Willkommens-E-Mail erneut senden', fr: "Renvoyer l'e-mail de bienvenue", it: "Inviare di nuovo l'e-mail di benvenuto" },
  'Grant or withdraw superuser rights (superusers)': {
    de: 'Superuser-Rechte erteilen oder entziehen (Superuser)',
    fr: 'Accorder ou retirer les droits de superutilisateur (superutilisateurs)',
    it: 'Concedere o revocare i diritti di superutente (superutenti)',
  },
  "A user's memberships in the caller's installations": {
    de: 'Die Mitgliedschaften eines Benutzers in den Anlagen des Aufrufers',
    fr: "Les adhésions d'un utilisateur aux installations de l'appelant",
    it: 'Le appartenenze di un utente agli impianti del chiamante',
  },
  'Add a user to an installation': { de: 'Einen Benutzer einer Anlage hinzufügen', fr: 'Ajouter un utilisateur à une installation', it: 'Aggiungere un utente a un impianto' },
  'One membership': { de: 'Eine Mitgliedschaft', fr: 'Une adhésion', it: "Un'appartenenza" },
  "Change a user's role in an installation": {
    de: 'Die Rolle eines Benutzers in einer Anlage ändern',
    fr: "Changer le rôle d'un utilisateur dans une installation",
    it: 'Cambiare il ruolo di un utente in un impianto',
  },
  'Remove a user from an installation': { de: 'Einen Benutzer aus einer Anlage entfernen', fr: "Retirer un utilisateur d'une installation", it: 'Rimuovere un utente da un impianto' },
  // permissions
  'Permission entries (filters user_id, object_type, object_id)': {
    de: 'Berechtigungen (Filter user_id, object_type, object_id)',
    fr: 'Autorisations (filtres user_id, object_type, object_id)',
    it: 'Autorizzazioni (filtri user_id, object_type, object_id)',
  },
  'Set a permission entry (level none deletes it)': {
    de: 'Eine Berechtigung setzen (Stufe none löscht sie)',
    fr: 'Définir une autorisation (le niveau none la supprime)',
    it: "Impostare un'autorizzazione (il livello none la elimina)",
  },
  'Delete a permission entry (key in the query or the body)': {
    de: 'Eine Berechtigung löschen (Schlüssel in der Abfrage oder im Inhalt)',
    fr: 'Supprimer une autorisation (clé dans la requête ou dans le corps)',
    it: "Eliminare un'autorizzazione (chiave nella query o nel corpo)",
  },
  // legal
  'The legal documents and whether the caller accepted their current version': {
    de: 'Die rechtlichen Dokumente und ob der Aufrufer ihre aktuelle Version akzeptiert hat',
    fr: "Les documents juridiques et si l'appelant a accepté leur version actuelle",
    it: 'I documenti legali e se il chiamante ne ha accettato la versione attuale',
  },
  'Accept a version of a legal document': {
    de: 'Eine Version eines rechtlichen Dokuments akzeptieren',
    fr: "Accepter une version d'un document juridique",
    it: 'Accettare una versione di un documento legale',
  },
  'The current legal documents with their text in the request language (public, for registration)': {
    de: 'Die aktuellen rechtlichen Dokumente mit ihrem Text in der Sprache der Anfrage (öffentlich, für die Registrierung)',
    fr: "Les documents juridiques actuels avec leur texte dans la langue de la requête (public, pour l'inscription)",
    it: 'I documenti legali attuali con il testo nella lingua della richiesta (pubblico, per la registrazione)',
  },
  'Every published version of the legal documents with their texts (superusers)': {
    de: 'Jede veröffentlichte Version der rechtlichen Dokumente mit ihren Texten (Superuser)',
    fr: 'Chaque version publiée des documents juridiques avec leurs textes (superutilisateurs)',
    it: 'Ogni versione pubblicata dei documenti legali con i loro testi (superutenti)',
  },
  'Publish a new version of a legal document; everyone is asked to accept it again (superusers)': {
    de: 'Eine neue Version eines rechtlichen Dokuments veröffentlichen; alle werden erneut um Zustimmung gebeten (Superuser)',
    fr: "Publier une nouvelle version d'un document juridique ; chacun est invité à l'accepter à nouveau (superutilisateurs)",
    it: 'Pubblicare una nuova versione di un documento legale; a tutti viene chiesto di accettarla di nuovo (superutenti)',
  },
  'The mail outbox, newest first (superusers)': {
    de: 'Der Mail-Ausgang, neueste zuerst (Superuser)',
    fr: "La file d'envoi des e-mails, les plus récents d'abord (superutilisateurs)",
    it: 'La coda delle e-mail in uscita, le più recenti prima (superutenti)',
  },
  'The countries of the address forms, names in the caller language': {
    de: 'Die Länder der Adressformulare, Namen in der Sprache des Aufrufers',
    fr: "Les pays des formulaires d'adresse, noms dans la langue de l'appelant",
    it: 'I paesi dei moduli di indirizzo, nomi nella lingua del chiamante',
  },
  'Cities of a country': { de: 'Orte eines Landes', fr: "Villes d'un pays", it: 'Città di un paese' },
  // users
  'A user (oneself, or a user an admin manages)': {
    de: 'Ein Benutzer (man selbst oder ein Benutzer, den ein Administrator verwaltet)',
    fr: 'Un utilisateur (soi-même, ou un utilisateur géré par un administrateur)',
    it: 'Un utente (sé stessi, o un utente gestito da un amministratore)',
  },
  "Replace a user's details": { de: 'Die Angaben eines Benutzers ersetzen', fr: "Remplacer les données d'un utilisateur", it: 'Sostituire i dati di un utente' },
  "Change some of a user's details": {
    de: 'Einzelne Angaben eines Benutzers ändern',
    fr: "Modifier certaines données d'un utilisateur",
    it: 'Modificare alcuni dati di un utente',
  },
  'Delete a user account': { de: 'Ein Benutzerkonto löschen', fr: 'Supprimer un compte utilisateur', it: 'Eliminare un account utente' },
  "Ask for a new sign-in e-mail address: it changes once confirmed from the link mailed to it (one's own needs the current password)": {
    de: 'Eine neue Anmelde-E-Mail-Adresse beantragen: Sie gilt, sobald sie mit dem an sie gesendeten Link bestätigt ist (für die eigene ist das aktuelle Passwort nötig)',
    fr: "Demander une nouvelle adresse e-mail de connexion : elle s'applique une fois confirmée avec le lien qui lui est envoyé (la sienne exige le mot de passe actuel)",
    it: "Chiedere un nuovo indirizzo e-mail di accesso: vale una volta confermato con il link inviato a esso (per il proprio serve la password attuale)",
  },
  "The installation's invitations not accepted yet": {
    de: 'Die noch nicht angenommenen Einladungen der Anlage',
    fr: "Les invitations de l'installation pas encore acceptées",
    it: "Gli inviti dell'impianto non ancora accettati",
  },
  'Send an invitation again with a new link (the previous link stops working)': {
    de: 'Eine Einladung mit einem neuen Link erneut senden (der bisherige Link gilt nicht mehr)',
    fr: "Renvoyer une invitation avec un nouveau lien (l'ancien lien ne fonctionne plus)",
    it: 'Inviare di nuovo un invito con un nuovo link (il link precedente non funziona più)',
  },
  'Withdraw an invitation (its link stops working)': {
    de: 'Eine Einladung zurückziehen (ihr Link gilt nicht mehr)',
    fr: 'Retirer une invitation (son lien ne fonctionne plus)',
    it: 'Ritirare un invito (il suo link non funziona più)',
  },
  'Confirm a new sign-in e-mail address with the link mailed to it (the previous address is mailed an undo link)': {
    de: 'Eine neue Anmelde-E-Mail-Adresse mit dem an sie gesendeten Link bestätigen (die bisherige Adresse erhält einen Link zum Rückgängigmachen)',
    fr: "Confirmer une nouvelle adresse e-mail de connexion avec le lien qui lui a été envoyé (l'ancienne adresse reçoit un lien d'annulation)",
    it: "Confermare un nuovo indirizzo e-mail di accesso con il link inviato a esso (l'indirizzo precedente riceve un link di annullamento)",
  },
  'Restore the previous sign-in address with the link mailed to it (ends every session)': {
    de: 'Die bisherige Anmeldeadresse mit dem an sie gesendeten Link wiederherstellen (beendet alle Sitzungen)',
    fr: 'Rétablir l’ancienne adresse de connexion avec le lien qui lui a été envoyé (met fin à toutes les sessions)',
    it: "Ripristinare l'indirizzo di accesso precedente con il link inviato a esso (termina tutte le sessioni)",
  },
  'Change the own password (ends every other session; answers a new token pair)': {
    de: 'Das eigene Passwort ändern (beendet alle anderen Sitzungen; antwortet mit einem neuen Tokenpaar)',
    fr: 'Changer son propre mot de passe (met fin à toutes les autres sessions ; répond par une nouvelle paire de jetons)',
    it: 'Cambiare la propria password (termina tutte le altre sessioni; risponde con una nuova coppia di token)',
  },
  "A user's monthly app fees (SPEC §9: the basic tariff), newest first": {
    de: 'Die monatlichen App-Gebühren eines Benutzers (SPEC §9: der Grundtarif), neueste zuerst',
    fr: "Les frais mensuels de l'application d'un utilisateur (SPEC §9 : le tarif de base), les plus récents d'abord",
    it: "I canoni mensili dell'app di un utente (SPEC §9: la tariffa base), i più recenti prima",
  },
  'The PDF invoice of a monthly app fee (lang or Accept-Language picks its language)': {
    de: 'Die PDF-Rechnung einer monatlichen App-Gebühr (lang oder Accept-Language wählt ihre Sprache)',
    fr: "La facture PDF de frais mensuels de l'application (lang ou Accept-Language en choisit la langue)",
    it: "La fattura PDF di un canone mensile dell'app (lang o Accept-Language ne sceglie la lingua)",
  },
  // audit
  'The audit trail, newest first (superusers; admins with the installation_id of their installation)': {
    de: 'Das Änderungsprotokoll, neueste zuerst (Superuser; Administratoren mit der installation_id ihrer Anlage)',
    fr: "Le journal d'audit, les plus récents d'abord (superutilisateurs ; administrateurs avec l'installation_id de leur installation)",
    it: "Il registro di audit, le voci più recenti prima (superutenti; amministratori con l'installation_id del loro impianto)",
  },
  "The installation's audit trail, newest first (admins)": {
    de: 'Das Änderungsprotokoll der Anlage, neueste zuerst (Administratoren)',
    fr: "Le journal d'audit de l'installation, les plus récents d'abord (administrateurs)",
    it: "Il registro di audit dell'impianto, le voci più recenti prima (amministratori)",
  },
  // support
  'Write to support: opens a ticket (SPEC §8 "message sent")': {
    de: 'An den Support schreiben: eröffnet ein Ticket (SPEC §8 «Nachricht gesendet»)',
    fr: 'Écrire au support : ouvre un ticket (SPEC §8 « message envoyé »)',
    it: 'Scrivere al supporto: apre un ticket (SPEC §8 «messaggio inviato»)',
  },
  "The caller's support tickets (superusers: all), newest activity first": {
    de: 'Die Support-Tickets des Aufrufers (Superuser: alle), neueste Aktivität zuerst',
    fr: "Les tickets de support de l'appelant (superutilisateurs : tous), activité la plus récente d'abord",
    it: "I ticket di supporto del chiamante (superutenti: tutti), prima quelli con l'attività più recente",
  },
  'A support ticket with its conversation': { de: 'Ein Support-Ticket mit seinem Verlauf', fr: 'Un ticket de support avec sa conversation', it: 'Un ticket di supporto con la sua conversazione' },
  'Close or reopen a ticket (support)': { de: 'Ein Ticket schliessen oder wieder öffnen (Support)', fr: 'Fermer ou rouvrir un ticket (support)', it: 'Chiudere o riaprire un ticket (supporto)' },
  'Write in an open ticket (its owner, or support)': {
    de: 'In einem offenen Ticket schreiben (seine Eigentümerin bzw. sein Eigentümer oder der Support)',
    fr: 'Écrire dans un ticket ouvert (son auteur ou le support)',
    it: 'Scrivere in un ticket aperto (il suo autore o il supporto)',
  },
  // shortcuts
  "The caller's shortcuts in the installation": { de: 'Die Verknüpfungen des Aufrufers in der Anlage', fr: "Les raccourcis de l'appelant dans l'installation", it: "Le scorciatoie del chiamante nell'impianto" },
  'Pin an app path (the same path again renames it)': {
    de: 'Einen App-Pfad anheften (derselbe Pfad erneut benennt ihn um)',
    fr: "Épingler un chemin de l'application (le même chemin une seconde fois le renomme)",
    it: "Fissare un percorso dell'app (lo stesso percorso di nuovo lo rinomina)",
  },
  'One of the caller’s shortcuts': { de: 'Eine der Verknüpfungen des Aufrufers', fr: "L'un des raccourcis de l'appelant", it: 'Una delle scorciatoie del chiamante' },
  'Remove one of the caller’s shortcuts': { de: 'Eine der Verknüpfungen des Aufrufers entfernen', fr: "Supprimer l'un des raccourcis de l'appelant", it: 'Rimuovere una delle scorciatoie del chiamante' },
} satisfies Translations
