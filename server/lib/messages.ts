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
  invalidDate: {
    en: 'Enter a date that exists, as YYYY-MM-DD.',
    de: 'Geben Sie ein Datum ein, das es gibt, im Format JJJJ-MM-TT.',
    fr: 'Saisissez une date qui existe, au format AAAA-MM-JJ.',
    it: 'Inserisca una data esistente, nel formato AAAA-MM-GG.',
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
    it: 'Troppi tentativi di accesso falliti. Riprovi tra {{minutes}} minuti.',
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
    it: 'Non ha il permesso di eseguire questa azione.',
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
    it: "Contatti l'amministratore della struttura per sbloccare la stazione di ricarica",
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
    it: 'Il servizio non è temporaneamente disponibile. Riprovi tra poco.',
  },
  tooManyHeavyRequests: {
    en: 'Too many requests of yours are still being processed. Wait for them to finish and try again.',
    de: 'Zu viele Ihrer Anfragen werden noch bearbeitet. Warten Sie, bis sie abgeschlossen sind, und versuchen Sie es erneut.',
    fr: 'Trop de vos requêtes sont encore en cours de traitement. Attendez qu’elles se terminent et réessayez.',
    it: 'Troppe Sue richieste sono ancora in elaborazione. Attenda che siano completate e riprovi.',
  },
  tooManyStreams: {
    en: 'Too many live connections are open. Close other tabs or displays and try again shortly.',
    de: 'Zu viele Live-Verbindungen sind offen. Schliessen Sie andere Tabs oder Anzeigen und versuchen Sie es gleich noch einmal.',
    fr: "Trop de connexions en direct sont ouvertes. Fermez d'autres onglets ou écrans et réessayez dans un instant.",
    it: 'Troppe connessioni live sono aperte. Chiuda altre schede o schermi e riprovi tra poco.',
  },
  ticketInvalid: {
    en: 'The live ticket is invalid, expired or already used. Request a new one.',
    de: 'Das Live-Ticket ist ungültig, abgelaufen oder bereits verwendet. Fordern Sie ein neues an.',
    fr: 'Le ticket live est invalide, expiré ou déjà utilisé. Demandez-en un nouveau.',
    it: 'Il ticket live non è valido, è scaduto o è già stato usato. Ne richieda uno nuovo.',
  },
  // Charging: RFIDs, learning mode, timers, sessions.
  rfidTagSpaces: {
    en: 'The RFID tag must not contain spaces.',
    de: 'Der RFID-Tag darf keine Leerzeichen enthalten.',
    fr: "Le tag RFID ne doit pas contenir d'espaces.",
    it: 'Il tag RFID non deve contenere spazi.',
  },
  rfidTagExists: {
    en: 'An active RFID with this tag already exists in this facility.',
    de: 'In dieser Anlage gibt es bereits einen aktiven RFID mit diesem Tag.',
    fr: 'Un RFID actif avec ce tag existe déjà dans cette installation.',
    it: 'In questa struttura esiste già un RFID attivo con questo tag.',
  },
  learningNoCar: {
    en: 'Learning mode needs a car plugged in at the charging station.',
    de: 'Für den Lernmodus muss ein Auto an der Ladestation angeschlossen sein.',
    fr: "Le mode d'apprentissage nécessite une voiture branchée à la borne de recharge.",
    it: "La modalità di apprendimento richiede un'auto collegata alla stazione di ricarica.",
  },
  learningCharging: {
    en: 'Learning mode cannot be activated while the charging station is charging.',
    de: 'Der Lernmodus kann nicht aktiviert werden, während die Ladestation lädt.',
    fr: "Le mode d'apprentissage ne peut pas être activé pendant que la borne recharge.",
    it: 'La modalità di apprendimento non può essere attivata mentre la stazione sta caricando.',
  },
  noPendingRfid: {
    en: 'No new RFID is waiting to be registered at this charging station.',
    de: 'An dieser Ladestation wartet kein neuer RFID auf die Registrierung.',
    fr: "Aucun nouveau RFID n'attend d'être enregistré à cette borne de recharge.",
    it: 'Nessun nuovo RFID è in attesa di registrazione presso questa stazione di ricarica.',
  },
  invalidTime: {
    en: 'Enter a time as HH:mm (00:00 to 23:59).',
    de: 'Geben Sie eine Uhrzeit als HH:mm ein (00:00 bis 23:59).',
    fr: 'Saisissez une heure au format HH:mm (00:00 à 23:59).',
    it: "Inserisca un'ora nel formato HH:mm (00:00–23:59).",
  },
  timerClash: {
    en: 'Another timer starts at this time on the same day with a different charging mode.',
    de: 'Ein anderer Timer startet am selben Tag zur selben Zeit mit einem anderen Lademodus.',
    fr: 'Un autre minuteur démarre à la même heure le même jour avec un autre mode de recharge.',
    it: "Un altro timer parte alla stessa ora nello stesso giorno con un'altra modalità di ricarica.",
  },
  rfidOrdered: {
    en: 'The RFID has been ordered. It will be delivered in 3–4 working days.',
    de: 'Der RFID wurde bestellt. Er wird in 3–4 Arbeitstagen geliefert.',
    fr: 'Le RFID a été commandé. Il sera livré dans 3 à 4 jours ouvrables.',
    it: "L'RFID è stato ordinato. Sarà consegnato in 3–4 giorni lavorativi.",
  },
  sessionNotFound: {
    en: 'Session is not found',
    de: 'Ladevorgang nicht gefunden',
    fr: 'Session introuvable',
    it: 'Sessione non trovata',
  },
  // Admin review of charging sessions (docs/decisions.md "Charging: plausible charger figures and debit ceilings").
  sessionNotOpen: {
    en: 'This charging session has already ended.',
    de: 'Dieser Ladevorgang ist bereits beendet.',
    fr: 'Cette recharge est déjà terminée.',
    it: 'Questa ricarica è già terminata.',
  },
  sessionNotReviewable: {
    en: 'This charging session cannot be changed: it is still charging or already paid.',
    de: 'Dieser Ladevorgang kann nicht geändert werden: Er läuft noch oder ist bereits bezahlt.',
    fr: 'Cette recharge ne peut pas être modifiée : elle est en cours ou déjà payée.',
    it: 'Questa ricarica non può essere modificata: è ancora in corso o già pagata.',
  },
  // Accounts: password reset and password rules (SPEC §5, §8).
  resetRequested: {
    en: 'If you have entered the correct email address, you will soon receive an email with further instructions.',
    de: 'Wenn Sie die richtige E-Mail-Adresse eingegeben haben, erhalten Sie in Kürze eine E-Mail mit weiteren Anweisungen.',
    fr: "Si vous avez saisi la bonne adresse e-mail, vous recevrez bientôt un e-mail avec les instructions à suivre.",
    it: "Se ha inserito l'indirizzo e-mail corretto, riceverà a breve un'e-mail con ulteriori istruzioni.",
  },
  resetLinkExpired: {
    en: 'The link has expired. Please create a new link',
    de: 'Der Link ist abgelaufen. Bitte fordern Sie einen neuen Link an',
    fr: 'Le lien a expiré. Veuillez créer un nouveau lien',
    it: 'Il link è scaduto. Crei un nuovo link',
  },
  passwordRule: {
    en: 'The password must be at least 8 characters long and contain a number and a symbol.',
    de: 'Das Passwort muss mindestens 8 Zeichen lang sein und eine Zahl und ein Sonderzeichen enthalten.',
    fr: 'Le mot de passe doit comporter au moins 8 caractères, dont un chiffre et un symbole.',
    it: 'La password deve contenere almeno 8 caratteri, tra cui un numero e un simbolo.',
  },
  passwordsMismatch: {
    en: 'The entered passwords do not match',
    de: 'Die eingegebenen Passwörter stimmen nicht überein',
    fr: 'Les mots de passe saisis ne correspondent pas',
    it: 'Le password inserite non corrispondono',
  },
  emailRestored: {
    en: 'Your previous e-mail address has been restored. For your security, every session has been signed out.',
    de: 'Ihre bisherige E-Mail-Adresse wurde wiederhergestellt. Zu Ihrer Sicherheit wurden alle Sitzungen abgemeldet.',
    fr: 'Votre ancienne adresse e-mail a été rétablie. Par sécurité, toutes les sessions ont été fermées.',
    it: 'Il Suo indirizzo e-mail precedente è stato ripristinato. Per sicurezza, tutte le sessioni sono state chiuse.',
  },
  emailConfirmSent: {
    en: 'We sent a link to confirm the new address. The sign-in e-mail changes once it is confirmed.',
    de: 'Wir haben einen Link zur Bestätigung der neuen Adresse gesendet. Die Anmelde-E-Mail ändert sich, sobald sie bestätigt ist.',
    fr: 'Nous avons envoyé un lien pour confirmer la nouvelle adresse. L’e-mail de connexion change dès qu’elle est confirmée.',
    it: 'Abbiamo inviato un link per confermare il nuovo indirizzo. L’e-mail di accesso cambia quando è confermato.',
  },
  emailConfirmed: {
    en: 'The new e-mail address is confirmed. Use it to sign in from now on.',
    de: 'Die neue E-Mail-Adresse ist bestätigt. Melden Sie sich ab jetzt damit an.',
    fr: 'La nouvelle adresse e-mail est confirmée. Utilisez-la désormais pour vous connecter.',
    it: 'Il nuovo indirizzo e-mail è confermato. D’ora in poi lo usi per accedere.',
  },
  wrongOldPassword: {
    en: 'The entered password does not match your current password',
    de: 'Das eingegebene Passwort stimmt nicht mit Ihrem aktuellen Passwort überein',
    fr: 'Le mot de passe saisi ne correspond pas à votre mot de passe actuel',
    it: 'La password inserita non corrisponde alla password attuale',
  },
  // First start (server/domain/auth/first-start.ts): the setup link and its route.
  setupLinkInvalid: {
    en: 'The setup link is invalid, used or expired. Restart the server for a new link, or use npm run admin -- create-superuser EMAIL.',
    de: 'Der Einrichtungslink ist ungültig, verwendet oder abgelaufen. Starten Sie den Server neu für einen neuen Link oder verwenden Sie npm run admin -- create-superuser EMAIL.',
    fr: "Le lien de configuration est invalide, déjà utilisé ou expiré. Redémarrez le serveur pour un nouveau lien ou utilisez npm run admin -- create-superuser EMAIL.",
    it: 'Il link di configurazione non è valido, è già stato usato o è scaduto. Riavvii il server per un nuovo link o usi npm run admin -- create-superuser EMAIL.',
  },
  setupDone: {
    en: 'Cockpit is already set up: a superuser exists. Please sign in.',
    de: 'Cockpit ist bereits eingerichtet: Es gibt einen Superuser. Bitte melden Sie sich an.',
    fr: 'Cockpit est déjà configuré : un superutilisateur existe. Veuillez vous connecter.',
    it: 'Cockpit è già configurato: esiste un superutente. Acceda.',
  },
  unpaidBlocksDeletion: {
    en: 'The profile cannot be deleted while unpaid charging sessions exist. Please pay them first.',
    de: 'Das Profil kann nicht gelöscht werden, solange unbezahlte Ladevorgänge bestehen. Bitte bezahlen Sie diese zuerst.',
    fr: 'Le profil ne peut pas être supprimé tant que des recharges impayées existent. Veuillez d’abord les payer.',
    it: 'Il profilo non può essere eliminato finché esistono ricariche non pagate. Le paghi prima.',
  },
  emailTaken: {
    en: 'This e-mail address is already used by another account.',
    de: 'Diese E-Mail-Adresse wird bereits von einem anderen Konto verwendet.',
    fr: 'Cette adresse e-mail est déjà utilisée par un autre compte.',
    it: 'Questo indirizzo e-mail è già usato da un altro account.',
  },
  dataSaved: {
    en: 'The data has been saved.',
    de: 'Die Daten wurden gespeichert.',
    fr: 'Les données ont été enregistrées.',
    it: 'I dati sono stati salvati.',
  },
  notOnYourself: {
    en: 'You cannot deactivate, remove or change the rights of your own account here.',
    de: 'Ihr eigenes Konto können Sie hier nicht deaktivieren, entfernen oder in seinen Rechten ändern.',
    fr: 'Vous ne pouvez pas désactiver, retirer ou modifier les droits de votre propre compte ici.',
    it: 'Qui non può disattivare, rimuovere o modificare i diritti del Suo account.',
  },
  identityElsewhere: {
    en: 'This person also belongs to a facility you do not administer; only a superuser may change their account.',
    de: 'Diese Person gehört auch zu einer Anlage, die Sie nicht verwalten; nur ein Superuser kann ihr Konto ändern.',
    fr: "Cette personne appartient aussi à une installation que vous n'administrez pas ; seul un superutilisateur peut modifier son compte.",
    it: 'Questa persona appartiene anche a una struttura che non amministra; solo un superutente può modificarne l’account.',
  },
  welcomeSent: {
    en: 'The welcome e-mail has been sent.',
    de: 'Die Willkommens-E-Mail wurde versendet.',
    fr: 'L’e-mail de bienvenue a été envoyé.',
    it: 'L’e-mail di benvenuto è stata inviata.',
  },
  registrationClosed: {
    en: 'Registration is not open for this facility. Please ask your facility administrator for an account.',
    de: 'Für diese Anlage ist keine Registrierung möglich. Bitte fragen Sie Ihre Anlagenverwaltung nach einem Konto.',
    fr: "L'inscription n'est pas ouverte pour cette installation. Demandez un compte à l'administrateur de votre installation.",
    it: "La registrazione non è aperta per questa struttura. Chieda un account all'amministratore della struttura.",
  },
  termsRequired: {
    en: 'Please accept the terms of use and the privacy policy.',
    de: 'Bitte akzeptieren Sie die Nutzungsbedingungen und die Datenschutzerklärung.',
    fr: "Veuillez accepter les conditions d'utilisation et la politique de confidentialité.",
    it: "Accetti le condizioni d'uso e l'informativa sulla privacy.",
  },
  registered: {
    en: 'Thank you. We have sent you an e-mail: confirm your address with the link in it, then log in.',
    de: 'Vielen Dank. Wir haben Ihnen eine E-Mail gesendet: Bestätigen Sie Ihre Adresse mit dem Link darin und melden Sie sich dann an.',
    fr: 'Merci. Nous vous avons envoyé un e-mail : confirmez votre adresse avec le lien qu’il contient, puis connectez-vous.',
    it: 'Grazie. Le abbiamo inviato un’e-mail: confermi il Suo indirizzo con il link contenuto, poi acceda.',
  },
  invitationAccepted: {
    en: 'You have joined the installation. Log in with your account to see it.',
    de: 'Sie sind der Anlage beigetreten. Melden Sie sich mit Ihrem Konto an, um sie zu sehen.',
    fr: 'Vous avez rejoint l’installation. Connectez-vous avec votre compte pour la voir.',
    it: 'Ha aderito alla struttura. Acceda con il Suo account per vederla.',
  },
  verified: {
    en: 'Your e-mail address is confirmed. You can now log in.',
    de: 'Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.',
    fr: 'Votre adresse e-mail est confirmée. Vous pouvez maintenant vous connecter.',
    it: 'Il Suo indirizzo e-mail è confermato. Ora può accedere.',
  },
  passwordChanged: {
    en: 'Your password has been changed.',
    de: 'Ihr Passwort wurde geändert.',
    fr: 'Votre mot de passe a été modifié.',
    it: 'La password è stata modificata.',
  },
  // Statistics
  statisticsEndBeforeStart: {
    en: 'The end must be after the start.',
    de: 'Das Ende muss nach dem Beginn liegen.',
    fr: 'La fin doit être postérieure au début.',
    it: "La fine deve essere successiva all'inizio.",
  },
  statisticsBucketLimit: {
    en: 'Too many intervals: at most {{limit}} per answer. Choose a coarser granularity or a shorter period.',
    de: 'Zu viele Intervalle: höchstens {{limit}} pro Antwort. Wählen Sie eine gröbere Auflösung oder einen kürzeren Zeitraum.',
    fr: 'Trop d’intervalles : au plus {{limit}} par réponse. Choisissez une granularité plus grossière ou une période plus courte.',
    it: 'Troppi intervalli: al massimo {{limit}} per risposta. Scelga una granularità più grossolana o un periodo più breve.',
  },
  // Rates (SPEC §4–5)
  rateInvalid: {
    en: 'Please enter a valid rate',
    de: 'Bitte geben Sie einen gültigen Tarif ein',
    fr: 'Veuillez saisir un tarif valide',
    it: 'Inserisca una tariffa valida',
  },
  ratesInvalid: {
    en: 'Please enter valid rates',
    de: 'Bitte geben Sie gültige Tarife ein',
    fr: 'Veuillez saisir des tarifs valides',
    it: 'Inserisca tariffe valide',
  },
  rateTimesInvalid: {
    en: 'Please enter valid rate times',
    de: 'Bitte geben Sie gültige Tarifzeiten ein',
    fr: 'Veuillez saisir des horaires tarifaires valides',
    it: 'Inserisca orari tariffari validi',
  },
  tariffStartsAfterToday: {
    en: 'A new tariff can only start after today: sessions already charged keep the price they were charged at.',
    de: 'Ein neuer Tarif kann frühestens morgen beginnen: Bereits geladene Sitzungen behalten ihren Preis.',
    fr: 'Un nouveau tarif ne peut commencer qu’après aujourd’hui : les recharges déjà effectuées gardent leur prix.',
    it: 'Una nuova tariffa può iniziare solo dopo oggi: le ricariche già effettuate mantengono il loro prezzo.',
  },
  ibanInvalid: {
    en: 'Please enter a valid Swiss or Liechtenstein IBAN (CH or LI, 21 characters).',
    de: 'Bitte geben Sie eine gültige IBAN aus der Schweiz oder Liechtenstein ein (CH oder LI, 21 Zeichen).',
    fr: 'Veuillez saisir un IBAN suisse ou liechtensteinois valide (CH ou LI, 21 caractères).',
    it: 'Inserisca un IBAN svizzero o del Liechtenstein valido (CH o LI, 21 caratteri).',
  },
  vatNumberInvalid: {
    en: 'Please enter the VAT number as CHE-123.456.789 MWST (or TVA, IVA).',
    de: 'Bitte geben Sie die MWST-Nummer als CHE-123.456.789 MWST (oder TVA, IVA) ein.',
    fr: 'Veuillez saisir le numéro de TVA sous la forme CHE-123.456.789 TVA (ou MWST, IVA).',
    it: 'Inserisca il numero IVA nel formato CHE-123.456.789 IVA (o MWST, TVA).',
  },
  rateStarted: {
    en: 'This rate has already started: only its name can be changed.',
    de: 'Dieser Tarif gilt bereits: Nur sein Name kann geändert werden.',
    fr: 'Ce tarif est déjà en vigueur : seul son nom peut être modifié.',
    it: 'Questa tariffa è già in vigore: si può modificare solo il nome.',
  },
  rateFlatFuture: {
    en: 'The flat rate can only be enabled in a future rate.',
    de: 'Der Einheitstarif kann nur in einem zukünftigen Tarif aktiviert werden.',
    fr: 'Le tarif unique ne peut être activé que dans un tarif futur.',
    it: 'La tariffa unica può essere attivata solo in una tariffa futura.',
  },
  pricingNotFound: {
    en: 'Pricing is not found',
    de: 'Keine Preise gefunden',
    fr: 'Aucune tarification trouvée',
    it: 'Nessun prezzo trovato',
  },
  paymentMethodMissing: {
    en: 'No payment method is stored. Please add one under Settings, Payment methods.',
    de: 'Es ist keine Zahlungsmethode hinterlegt. Bitte fügen Sie eine unter Einstellungen, Zahlungsmethoden hinzu.',
    fr: 'Aucun moyen de paiement enregistré. Veuillez en ajouter un sous Paramètres, Moyens de paiement.',
    it: 'Nessun metodo di pagamento registrato. Ne aggiunga uno in Impostazioni, Metodi di pagamento.',
  },
  paymentFailed: {
    en: 'Charging this payment method failed, please revise',
    de: 'Die Belastung dieser Zahlungsmethode ist fehlgeschlagen, bitte überprüfen',
    fr: 'Le débit de ce moyen de paiement a échoué, veuillez le vérifier',
    it: 'L’addebito su questo metodo di pagamento non è riuscito, si prega di verificarlo',
  },
  invalidSignature: {
    en: 'The signature is not valid.',
    de: 'Die Signatur ist ungültig.',
    fr: "La signature n'est pas valide.",
    it: 'La firma non è valida.',
  },
  // Text bounds (SPEC §5 style: the message names the field and the bound).
  tooLong: {
    en: 'Ensure the field {{field}} has no more than {{max}} characters.',
    de: 'Das Feld {{field}} darf höchstens {{max}} Zeichen enthalten.',
    fr: 'Le champ {{field}} ne doit pas dépasser {{max}} caractères.',
    it: 'Il campo {{field}} non deve superare {{max}} caratteri.',
  },
  installationArchived: {
    en: 'This installation is archived and read-only. Unarchive it to make changes.',
    de: 'Diese Anlage ist archiviert und schreibgeschützt. Holen Sie sie aus dem Archiv, um sie zu ändern.',
    fr: 'Cette installation est archivée et en lecture seule. Désarchivez-la pour la modifier.',
    it: "Questo impianto è archiviato e in sola lettura. Lo ripristini dall'archivio per modificarlo.",
  },
  installationHasBilling: {
    en: 'This installation has billing history (charging sessions or payments) and cannot be deleted. Archive it instead.',
    de: 'Diese Anlage hat eine Abrechnungshistorie (Ladevorgänge oder Zahlungen) und kann nicht gelöscht werden. Archivieren Sie sie stattdessen.',
    fr: "Cette installation a un historique de facturation (sessions de recharge ou paiements) et ne peut pas être supprimée. Archivez-la plutôt.",
    it: 'Questo impianto ha uno storico di fatturazione (sessioni di ricarica o pagamenti) e non può essere eliminato. Lo archivi invece.',
  },
  timezoneUnknown: {
    en: 'Unknown time zone. Use an IANA name such as Europe/Zurich.',
    de: 'Unbekannte Zeitzone. Verwenden Sie einen IANA-Namen wie Europe/Zurich.',
    fr: 'Fuseau horaire inconnu. Utilisez un nom IANA comme Europe/Zurich.',
    it: 'Fuso orario sconosciuto. Usi un nome IANA come Europe/Zurich.',
  },
  objectCycle: {
    en: 'An object cannot be placed below itself or one of its own sub-objects.',
    de: 'Ein Objekt kann nicht unter sich selbst oder eines seiner Unterobjekte gestellt werden.',
    fr: "Un objet ne peut pas être placé sous lui-même ni sous l'un de ses sous-objets.",
    it: 'Un oggetto non può essere collocato sotto sé stesso o sotto uno dei suoi sotto-oggetti.',
  },
  objectNotEmpty: {
    en: 'The object is not empty ({{objects|one:# sub-object|other:# sub-objects}}, {{meters|one:# meter|other:# meters}}, {{stations|one:# charging station|other:# charging stations}}). Remove or move them first.',
    de: 'Das Objekt ist nicht leer ({{objects|one:# Unterobjekt|other:# Unterobjekte}}, {{meters|one:# Zähler|other:# Zähler}}, {{stations|one:# Ladestation|other:# Ladestationen}}). Entfernen oder verschieben Sie diese zuerst.',
    fr: "L'objet n'est pas vide ({{objects|one:# sous-objet|other:# sous-objets}}, {{meters|one:# compteur|other:# compteurs}}, {{stations|one:# borne de recharge|other:# bornes de recharge}}). Supprimez-les ou déplacez-les d'abord.",
    it: "L'oggetto non è vuoto ({{objects|one:# sotto-oggetto|other:# sotto-oggetti}}, {{meters|one:# contatore|other:# contatori}}, {{stations|one:# stazione di ricarica|other:# stazioni di ricarica}}). Li rimuova o li sposti prima.",
  },
  alreadyExists: {
    en: 'An entry with these values already exists.',
    de: 'Ein Eintrag mit diesen Werten existiert bereits.',
    fr: 'Une entrée avec ces valeurs existe déjà.',
    it: 'Esiste già una voce con questi valori.',
  },
  zevModelInvalid: {
    en: 'Please choose a ZEV billing model: flat rate or actual costs',
    de: 'Bitte wählen Sie ein ZEV-Abrechnungsmodell: Pauschale oder effektive Kosten',
    fr: 'Veuillez choisir un modèle de décompte RCP : forfait ou coûts effectifs',
    it: 'Scelga un modello di conteggio RCP: forfait o costi effettivi',
  },
  zevFlatPercentInvalid: {
    en: 'Please enter a valid rate: the flat rate is at most {{max}} % of the external standard electricity product',
    de: 'Bitte geben Sie einen gültigen Tarif ein: Die Pauschale beträgt höchstens {{max}} % des externen Standardstromprodukts',
    fr: 'Veuillez saisir un tarif valide : le forfait est d’au plus {{max}} % du produit électrique standard externe',
    it: 'Inserisca una tariffa valida: il forfait è al massimo il {{max}} % del prodotto elettrico standard esterno',
  },
  // SPEC §3/§5 wording: a report's output directory outside the installation's reports folder.
  outputDirectoryInvalid: {
    en: 'Please enter a valid output directory: folder names separated by "/", e.g. exports/heat',
    de: 'Bitte geben Sie einen gültigen Ausgabeordner ein: Ordnernamen, getrennt durch «/», z. B. exports/waerme',
    fr: 'Veuillez saisir un dossier de sortie valide : des noms de dossiers séparés par « / », p. ex. exports/chaleur',
    it: 'Inserisca una cartella di destinazione valida: nomi di cartelle separati da «/», p. es. exports/calore',
  },
  // Support and shortcuts (SPEC §8 "message sent", "shortcut added or removed").
  supportSent: {
    en: 'Your message has been sent.',
    de: 'Ihre Nachricht wurde gesendet.',
    fr: 'Votre message a été envoyé.',
    it: 'Il Suo messaggio è stato inviato.',
  },
  ticketClosed: {
    en: 'This ticket is closed. Reopen it to write in it.',
    de: 'Dieses Ticket ist geschlossen. Eröffnen Sie es wieder, um darin zu schreiben.',
    fr: 'Ce ticket est fermé. Rouvrez-le pour y écrire.',
    it: 'Questo ticket è chiuso. Lo riapra per scriverci.',
  },
  shortcutAdded: {
    en: 'The shortcut has been added.',
    de: 'Die Verknüpfung wurde hinzugefügt.',
    fr: 'Le raccourci a été ajouté.',
    it: 'La scorciatoia è stata aggiunta.',
  },
  shortcutRemoved: {
    en: 'The shortcut has been removed.',
    de: 'Die Verknüpfung wurde entfernt.',
    fr: 'Le raccourci a été supprimé.',
    it: 'La scorciatoia è stata rimossa.',
  },
  shortcutLimit: {
    en: 'You can keep at most {{max}} shortcuts per facility. Remove one first.',
    de: 'Sie können höchstens {{max}} Verknüpfungen pro Anlage behalten. Entfernen Sie zuerst eine.',
    fr: "Vous pouvez garder au plus {{max}} raccourcis par installation. Supprimez-en d'abord un.",
    it: 'Può tenere al massimo {{max}} scorciatoie per struttura. Ne rimuova prima una.',
  },
  ocppIdTaken: {
    en: 'This charge point id is already bound to another charging station.',
    de: 'Diese Ladepunkt-ID ist bereits mit einer anderen Ladestation verbunden.',
    fr: 'Cet identifiant de point de charge est déjà lié à une autre borne de recharge.',
    it: 'Questo ID del punto di ricarica è già associato a un’altra stazione di ricarica.',
  },
  ocppNotBound: {
    en: 'This charging station is not connected over OCPP.',
    de: 'Diese Ladestation ist nicht über OCPP verbunden.',
    fr: "Cette borne de recharge n'est pas connectée via OCPP.",
    it: 'Questa stazione di ricarica non è collegata tramite OCPP.',
  },
  ocppNoTransaction: {
    en: 'No charging transaction is running at this charging station.',
    de: 'An dieser Ladestation läuft kein Ladevorgang.',
    fr: "Aucune transaction de recharge n'est en cours à cette borne.",
    it: 'Nessuna transazione di ricarica è in corso presso questa stazione.',
  },
  // Provisioning meters and charging stations.
  meterSerialTaken: {
    en: 'Another meter of this facility has this serial number.',
    de: 'Ein anderer Zähler dieser Anlage hat diese Seriennummer.',
    fr: 'Un autre compteur de cette installation a ce numéro de série.',
    it: 'Un altro contatore di questo impianto ha questo numero di serie.',
  },
  meterUnitWrong: {
    en: 'This meter type is measured in {{unit}}.',
    de: 'Dieser Zählertyp misst in {{unit}}.',
    fr: 'Ce type de compteur mesure en {{unit}}.',
    it: 'Questo tipo di contatore misura in {{unit}}.',
  },
  sourceConfigModbusOnly: {
    en: 'Only a meter read over Modbus has device settings; choose the source Modbus or leave them empty.',
    de: 'Nur ein über Modbus gelesener Zähler hat Geräteeinstellungen; wählen Sie die Quelle Modbus oder lassen Sie sie leer.',
    fr: "Seul un compteur lu par Modbus a des réglages d'appareil ; choisissez la source Modbus ou laissez-les vides.",
    it: 'Solo un contatore letto tramite Modbus ha impostazioni del dispositivo; scelga la fonte Modbus o le lasci vuote.',
  },
  meterOfStation: {
    en: "This meter belongs to a charging station: change or delete the charging station instead.",
    de: 'Dieser Zähler gehört zu einer Ladestation: Ändern oder löschen Sie stattdessen die Ladestation.',
    fr: "Ce compteur appartient à une borne de recharge : modifiez ou supprimez plutôt la borne.",
    it: 'Questo contatore appartiene a una stazione di ricarica: modifichi o elimini invece la stazione.',
  },
  stationSessionOpen: {
    en: 'A charging session is running at this charging station. Delete it once the session has ended.',
    de: 'An dieser Ladestation läuft ein Ladevorgang. Löschen Sie sie, wenn er beendet ist.',
    fr: 'Une session de recharge est en cours à cette borne. Supprimez-la une fois la session terminée.',
    it: 'Una sessione di ricarica è in corso presso questa stazione. La elimini al termine della sessione.',
  },
  // Configuration files (docs/configuration-files.md); the field names the line and place in the file.
  configurationYaml: {
    en: 'The YAML is malformed: {{reason}}',
    de: 'Das YAML ist fehlerhaft: {{reason}}',
    fr: 'Le YAML est mal formé : {{reason}}',
    it: 'Lo YAML non è valido: {{reason}}',
  },
  configurationUnknownKey: {
    en: 'This key is not part of the configuration format.',
    de: 'Dieser Schlüssel gehört nicht zum Konfigurationsformat.',
    fr: "Cette clé ne fait pas partie du format de configuration.",
    it: 'Questa chiave non fa parte del formato di configurazione.',
  },
  configurationDuplicate: {
    en: 'This key is already given on line {{line}}.',
    de: 'Dieser Schlüssel steht bereits auf Zeile {{line}}.',
    fr: 'Cette clé figure déjà à la ligne {{line}}.',
    it: 'Questa chiave è già indicata alla riga {{line}}.',
  },
  configurationUnknownObject: {
    en: 'No object with this path, neither in the file nor in the installation.',
    de: 'Kein Objekt mit diesem Pfad, weder in der Datei noch in der Anlage.',
    fr: "Aucun objet avec ce chemin, ni dans le fichier ni dans l'installation.",
    it: "Nessun oggetto con questo percorso, né nel file né nell'impianto.",
  },
  configurationUnknownStation: {
    en: 'No charging station with this OCPP id or name, neither in the file nor in the installation.',
    de: 'Keine Ladestation mit dieser OCPP-ID oder diesem Namen, weder in der Datei noch in der Anlage.',
    fr: "Aucune borne avec cet identifiant OCPP ou ce nom, ni dans le fichier ni dans l'installation.",
    it: "Nessuna stazione di ricarica con questo ID OCPP o nome, né nel file né nell'impianto.",
  },
  configurationAmbiguous: {
    en: 'More than one installation has this name. Rename one of them first.',
    de: 'Mehrere Anlagen haben diesen Namen. Benennen Sie zuerst eine davon um.',
    fr: 'Plusieurs installations portent ce nom. Renommez-en une d’abord.',
    it: 'Più impianti hanno questo nome. Ne rinomini prima uno.',
  },
  configurationCurrencyFixed: {
    en: 'The currency of an existing installation cannot be changed.',
    de: 'Die Währung einer bestehenden Anlage kann nicht geändert werden.',
    fr: "La devise d'une installation existante ne peut pas être modifiée.",
    it: 'La valuta di un impianto esistente non può essere modificata.',
  },
  configurationNotExportable: {
    en: 'Object {{id}} cannot be written to a configuration file: its description contains " / " or a sibling has the same description.',
    de: 'Objekt {{id}} kann nicht in eine Konfigurationsdatei geschrieben werden: seine Beschreibung enthält « / » oder ein Geschwister hat dieselbe Beschreibung.',
    fr: "L'objet {{id}} ne peut pas être écrit dans un fichier de configuration : sa description contient « / » ou un objet voisin a la même description.",
    it: "L'oggetto {{id}} non può essere scritto in un file di configurazione: la sua descrizione contiene « / » o un oggetto vicino ha la stessa descrizione.",
  },
  // A display link's key used for anything but its installation's Power view.
  displayReadOnly: {
    en: 'A display link may only show the live Power view of its installation.',
    de: 'Ein Anzeige-Link darf nur die Live-Ansicht «Leistung» seiner Anlage zeigen.',
    fr: "Un lien d'affichage ne peut montrer que la vue « Puissance » en direct de son installation.",
    it: 'Un link di visualizzazione può mostrare solo la vista «Potenza» in tempo reale del suo impianto.',
  },
  ingestTooManyReadings: {
    en: 'Too many readings: at most {{max}} readings per batch.',
    de: 'Zu viele Messwerte: höchstens {{max}} Messwerte pro Sendung.',
    fr: 'Trop de relevés : au plus {{max}} relevés par lot.',
    it: 'Troppe letture: al massimo {{max}} letture per invio.',
  },
  ingestTooLarge: {
    en: 'The batch is too large: at most 1 MB ({{max}} bytes) per batch.',
    de: 'Die Sendung ist zu groß: höchstens 1 MB ({{max}} Bytes) pro Sendung.',
    fr: 'Le lot est trop volumineux : au plus 1 Mo ({{max}} octets) par lot.',
    it: "L'invio è troppo grande: al massimo 1 MB ({{max}} byte) per invio.",
  },
  deviceKeyInvalid: {
    en: 'The device key is missing, unknown or revoked.',
    de: 'Der Geräteschlüssel fehlt, ist unbekannt oder widerrufen.',
    fr: "La clé d'appareil est absente, inconnue ou révoquée.",
    it: 'La chiave del dispositivo manca, è sconosciuta o revocata.',
  },

  // Why a reading was refused or set aside (server/domain/ingest/reasons.ts): field names, measurands,
  // units and figures stay as the device sent them.
  ingestFieldRequired: {
    en: '{{field}}: required',
    de: '{{field}}: erforderlich',
    fr: '{{field}} : obligatoire',
    it: '{{field}}: obbligatorio',
  },
  ingestFieldInvalid: {
    en: '{{field}}: not valid',
    de: '{{field}}: ungültig',
    fr: "{{field}} : n'est pas valide",
    it: '{{field}}: non valido',
  },
  ingestTimestampFormat: {
    en: 'timestamp: not an ISO 8601 date and time with an offset',
    de: 'timestamp: kein Datum mit Uhrzeit nach ISO 8601 mit Zeitverschiebung',
    fr: 'timestamp : pas une date et heure ISO 8601 avec décalage horaire',
    it: 'timestamp: non è una data e ora ISO 8601 con fuso orario',
  },
  ingestTimestampInvalid: {
    en: 'timestamp: not a valid date and time',
    de: 'timestamp: kein gültiges Datum mit Uhrzeit',
    fr: 'timestamp : pas une date et heure valides',
    it: 'timestamp: non è una data e ora valida',
  },
  ingestMeasurandUnknown: {
    en: 'measurand: not one of {{list}}',
    de: 'measurand: keine der Messgrößen {{list}}',
    fr: "measurand : n'est pas l'une des grandeurs {{list}}",
    it: 'measurand: non è una delle grandezze {{list}}',
  },
  ingestNoMeterId: {
    en: 'meter_id: no meter {{id}} in this installation',
    de: 'meter_id: kein Zähler {{id}} in dieser Anlage',
    fr: 'meter_id : aucun compteur {{id}} dans cette installation',
    it: 'meter_id: nessun contatore {{id}} in questo impianto',
  },
  ingestNoMeterSerial: {
    en: 'meter_serial: no meter with serial {{serial}} in this installation',
    de: 'meter_serial: kein Zähler mit der Seriennummer {{serial}} in dieser Anlage',
    fr: 'meter_serial : aucun compteur avec le numéro de série {{serial}} dans cette installation',
    it: 'meter_serial: nessun contatore con il numero di serie {{serial}} in questo impianto',
  },
  ingestMeterSimulated: {
    en: 'meter {{id}} is simulated: it takes no readings from devices (change its source first)',
    de: 'Zähler {{id}} ist simuliert: Er nimmt keine Messwerte von Geräten an (ändern Sie zuerst seine Quelle)',
    fr: "le compteur {{id}} est simulé : il n'accepte aucun relevé d'appareil (changez d'abord sa source)",
    it: 'il contatore {{id}} è simulato: non accetta letture da dispositivi (cambi prima la sua fonte)',
  },
  ingestMeasurandNotMeasured: {
    en: 'measurand: a {{type}} meter does not measure {{measurand}}',
    de: 'measurand: ein Zähler vom Typ {{type}} misst kein {{measurand}}',
    fr: 'measurand : un compteur de type {{type}} ne mesure pas {{measurand}}',
    it: 'measurand: un contatore di tipo {{type}} non misura {{measurand}}',
  },
  ingestUnitWrong: {
    en: 'unit: {{unit}} is not a unit of {{measurand}} ({{units}})',
    de: 'unit: {{unit}} ist keine Einheit von {{measurand}} ({{units}})',
    fr: "unit : {{unit}} n'est pas une unité de {{measurand}} ({{units}})",
    it: 'unit: {{unit}} non è un’unità di {{measurand}} ({{units}})',
  },
  ingestAhead: {
    en: "timestamp: {{timestamp}} is more than 5 minutes ahead of the server's clock ({{now}})",
    de: 'timestamp: {{timestamp}} liegt mehr als 5 Minuten vor der Uhr des Servers ({{now}})',
    fr: "timestamp : {{timestamp}} est en avance de plus de 5 minutes sur l'horloge du serveur ({{now}})",
    it: "timestamp: {{timestamp}} è più di 5 minuti avanti rispetto all'orologio del server ({{now}})",
  },
  ingestTooOld: {
    en: 'timestamp: {{timestamp}} is older than the retention window ({{oldest}})',
    de: 'timestamp: {{timestamp}} ist älter als die Aufbewahrungsfrist ({{oldest}})',
    fr: 'timestamp : {{timestamp}} est plus ancien que la durée de conservation ({{oldest}})',
    it: 'timestamp: {{timestamp}} è più vecchio del periodo di conservazione ({{oldest}})',
  },
  ingestValueNotFinite: {
    en: 'value: not a finite number',
    de: 'value: keine endliche Zahl',
    fr: 'value : pas un nombre fini',
    it: 'value: non è un numero finito',
  },
  ingestRegisterRange: {
    en: 'value: a register of {{value}} {{unit}} is out of range (0 to {{max}} {{unit}})',
    de: 'value: ein Zählerstand von {{value}} {{unit}} liegt außerhalb des Bereichs (0 bis {{max}} {{unit}})',
    fr: 'value : un index de {{value}} {{unit}} est hors limites (0 à {{max}} {{unit}})',
    it: 'value: una lettura di {{value}} {{unit}} è fuori intervallo (da 0 a {{max}} {{unit}})',
  },
  ingestPowerBeyondMax: {
    en: "value: {{value}} kW is beyond the meter's maximum power of {{max}} kW",
    de: 'value: {{value}} kW liegt über der Höchstleistung des Zählers von {{max}} kW',
    fr: 'value : {{value}} kW dépasse la puissance maximale du compteur de {{max}} kW',
    it: 'value: {{value}} kW supera la potenza massima del contatore di {{max}} kW',
  },
  ingestSocRange: {
    en: 'value: a state of charge of {{value}} % is outside 0 to 100 %',
    de: 'value: ein Ladestand von {{value}} % liegt außerhalb von 0 bis 100 %',
    fr: 'value : un état de charge de {{value}} % est hors de 0 à 100 %',
    it: 'value: uno stato di carica di {{value}} % è fuori da 0 a 100 %',
  },
  ingestVoltageRange: {
    en: 'value: {{value}} V is out of range (0 to {{max}} V)',
    de: 'value: {{value}} V liegt außerhalb des Bereichs (0 bis {{max}} V)',
    fr: 'value : {{value}} V est hors limites (0 à {{max}} V)',
    it: 'value: {{value}} V è fuori intervallo (da 0 a {{max}} V)',
  },
  ingestCurrentRange: {
    en: 'value: {{value}} A is out of range (at most {{max}} A)',
    de: 'value: {{value}} A liegt außerhalb des Bereichs (höchstens {{max}} A)',
    fr: 'value : {{value}} A est hors limites (au plus {{max}} A)',
    it: 'value: {{value}} A è fuori intervallo (al massimo {{max}} A)',
  },
  ingestRegisterDown: {
    en: 'register went down from {{from}} to {{to}} {{unit}} (counter reset or swapped meter): nothing booked, the next reading counts from {{to}} {{unit}}',
    de: 'Zählerstand ist von {{from}} auf {{to}} {{unit}} gesunken (Zähler zurückgesetzt oder getauscht): nichts verbucht, der nächste Messwert zählt ab {{to}} {{unit}}',
    fr: "l'index a baissé de {{from}} à {{to}} {{unit}} (compteur remis à zéro ou remplacé) : rien comptabilisé, le prochain relevé compte à partir de {{to}} {{unit}}",
    it: 'la lettura è scesa da {{from}} a {{to}} {{unit}} (contatore azzerato o sostituito): nulla contabilizzato, la prossima lettura conta da {{to}} {{unit}}',
  },
  ingestRegisterTooFast: {
    en: "register rose by {{rise}} {{unit}} in {{seconds}} s, faster than the meter's maximum: nothing booked, the next reading counts from {{to}} {{unit}}",
    de: 'Zählerstand ist in {{seconds}} s um {{rise}} {{unit}} gestiegen, schneller als das Maximum des Zählers: nichts verbucht, der nächste Messwert zählt ab {{to}} {{unit}}',
    fr: "l'index a augmenté de {{rise}} {{unit}} en {{seconds}} s, plus vite que le maximum du compteur : rien comptabilisé, le prochain relevé compte à partir de {{to}} {{unit}}",
    it: 'la lettura è salita di {{rise}} {{unit}} in {{seconds}} s, più del massimo del contatore: nulla contabilizzato, la prossima lettura conta da {{to}} {{unit}}',
  },
  ingestLowerThanBefore: {
    en: 'register {{value}} {{unit}} is lower than the reading before it ({{before}} {{unit}} at {{at}}): not stored',
    de: 'Zählerstand {{value}} {{unit}} ist tiefer als der Messwert davor ({{before}} {{unit}} um {{at}}): nicht gespeichert',
    fr: "l'index {{value}} {{unit}} est inférieur au relevé précédent ({{before}} {{unit}} à {{at}}) : non enregistré",
    it: 'la lettura {{value}} {{unit}} è inferiore a quella precedente ({{before}} {{unit}} alle {{at}}): non salvata',
  },
  ingestHigherThanAfter: {
    en: 'register {{value}} {{unit}} is higher than the reading after it ({{after}} {{unit}} at {{at}}): not stored',
    de: 'Zählerstand {{value}} {{unit}} ist höher als der Messwert danach ({{after}} {{unit}} um {{at}}): nicht gespeichert',
    fr: "l'index {{value}} {{unit}} est supérieur au relevé suivant ({{after}} {{unit}} à {{at}}) : non enregistré",
    it: 'la lettura {{value}} {{unit}} è superiore a quella successiva ({{after}} {{unit}} alle {{at}}): non salvata',
  },

  // Load management (docs/decisions.md "Load management: model, controller and reasons").
  loadCircuitDuplicate: {
    en: 'Another circuit already has this id.',
    de: 'Ein anderer Stromkreis hat bereits diese ID.',
    fr: 'Un autre circuit a déjà cet identifiant.',
    it: 'Un altro circuito ha già questo ID.',
  },
  loadCircuitUnknownParent: {
    en: 'No circuit with this id: the parent must be one of the circuits, or empty for the grid connection.',
    de: 'Kein Stromkreis mit dieser ID: der übergeordnete muss einer der Stromkreise sein, oder leer für den Netzanschluss.',
    fr: "Aucun circuit avec cet identifiant : le parent doit être l'un des circuits, ou vide pour le raccordement au réseau.",
    it: "Nessun circuito con questo ID: il genitore deve essere uno dei circuiti, o vuoto per l'allacciamento alla rete.",
  },
  loadCircuitCycle: {
    en: 'A circuit cannot feed itself, directly or through other circuits.',
    de: 'Ein Stromkreis kann sich nicht selbst speisen, weder direkt noch über andere Stromkreise.',
    fr: "Un circuit ne peut pas s'alimenter lui-même, ni directement ni par d'autres circuits.",
    it: 'Un circuito non può alimentare sé stesso, né direttamente né tramite altri circuiti.',
  },
  loadStationUnknown: {
    en: 'Charging station {{id}} is not a charging station of this installation.',
    de: 'Ladestation {{id}} ist keine Ladestation dieser Anlage.',
    fr: "La borne {{id}} n'est pas une borne de cette installation.",
    it: 'La stazione {{id}} non è una stazione di ricarica di questo impianto.',
  },
  loadStationTwice: {
    en: 'Charging station {{id}} is already on another circuit; a station hangs on one circuit only.',
    de: 'Ladestation {{id}} hängt bereits an einem anderen Stromkreis; eine Ladestation hängt an genau einem.',
    fr: 'La borne {{id}} est déjà sur un autre circuit ; une borne ne dépend que d’un seul circuit.',
    it: 'La stazione {{id}} è già su un altro circuito; una stazione dipende da un solo circuito.',
  },
  // Charge plans (docs/decisions.md "Load management: charge plans").
  planEnergyRange: {
    en: 'Enter the energy in kWh, more than 0 and at most {{max}}, or choose "full".',
    de: 'Geben Sie die Energie in kWh ein, mehr als 0 und höchstens {{max}}, oder wählen Sie «voll».',
    fr: 'Saisissez l’énergie en kWh, plus de 0 et au plus {{max}}, ou choisissez « plein ».',
    it: 'Inserisca l’energia in kWh, più di 0 e al massimo {{max}}, oppure scelga «pieno».',
  },
  planDeadlinePast: {
    en: 'The deadline has already passed. Choose a time in the future.',
    de: 'Die Frist ist bereits vorbei. Wählen Sie einen Zeitpunkt in der Zukunft.',
    fr: 'L’échéance est déjà passée. Choisissez un moment dans le futur.',
    it: 'La scadenza è già passata. Scelga un momento nel futuro.',
  },
  planDeadlineFar: {
    en: 'The deadline is more than a week away. Choose a time within the next 7 days.',
    de: 'Die Frist liegt mehr als eine Woche entfernt. Wählen Sie einen Zeitpunkt in den nächsten 7 Tagen.',
    fr: 'L’échéance est à plus d’une semaine. Choisissez un moment dans les 7 prochains jours.',
    it: 'La scadenza è a più di una settimana. Scelga un momento nei prossimi 7 giorni.',
  },
  planNoSession: {
    en: 'No car is charging at this station. Set the plan on your RFID card instead, so it applies when you plug in.',
    de: 'An dieser Ladestation lädt kein Auto. Legen Sie den Plan stattdessen für Ihren RFID-Badge an, damit er beim Einstecken gilt.',
    fr: 'Aucune voiture ne charge à cette borne. Définissez plutôt le plan sur votre badge RFID, il s’appliquera au branchement.',
    it: 'Nessuna auto è in carica a questa stazione. Imposti invece il piano sul Suo badge RFID, così vale quando collega l’auto.',
  },
  planUnreachable: {
    en: '{{target}} kWh cannot be reached by {{time}} within the building connection\'s limits: about {{kwh}} kWh by then.',
    de: '{{target}} kWh sind bis {{time}} innerhalb der Grenzen des Hausanschlusses nicht erreichbar: bis dahin etwa {{kwh}} kWh.',
    fr: '{{target}} kWh ne peuvent pas être atteints d’ici {{time}} dans les limites du raccordement : environ {{kwh}} kWh d’ici là.',
    it: '{{target}} kWh non sono raggiungibili entro le {{time}} nei limiti dell’allacciamento: circa {{kwh}} kWh entro allora.',
  },
} satisfies Record<string, Record<Lang, string>>

export type MessageKey = keyof typeof M

/**
 * The message `key` in `lang` with `{{name}}` placeholders filled. A count takes its plural form with
 * `{{name|one:# flat|other:# flats}}`: the form of the language's plural category of the number
 * (Intl.PluralRules, the CLDR rules i18next uses in the client; `other` when the category has no form),
 * with `#` replaced by the number.
 */
export function message(key: MessageKey, lang: Lang, params: Record<string, string | number> = {}): string {
  return M[key][lang]
    .replace(/\{\{\s*(\w+)\s*\|([^}]*)\}\}/g, (_, k: string, forms: string) => {
      const n = Number(params[k] ?? 0)
      const byCategory = new Map(forms.split('|').map((f) => [f.slice(0, f.indexOf(':')).trim(), f.slice(f.indexOf(':') + 1)]))
      return (byCategory.get(new Intl.PluralRules(lang).select(n)) ?? byCategory.get('other') ?? '').replaceAll('#', String(n))
    })
    .replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(params[k] ?? ''))
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
