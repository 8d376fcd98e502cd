import type { Translations } from './translations.ts'

/**
 * Descriptions of parameters, properties and route-specific answers (zod `.describe()` and the routes'
 * response descriptions), and the "Default Response" that @fastify/swagger gives an answer without one.
 */
export const FIELD_DESCRIPTIONS = {
  'Default Response': { de: 'Standardantwort', fr: 'Réponse par défaut', it: 'Risposta predefinita' },
  'The demo installation the account belongs to; null for a superuser (every installation)': {
    de: 'Die Demo-Anlage, zu der das Konto gehört; null für einen Superuser (alle Anlagen)',
    fr: "L'installation de démonstration à laquelle appartient le compte ; null pour un superutilisateur (toutes les installations)",
    it: "L'impianto dimostrativo a cui appartiene l'account; null per un superutente (tutti gli impianti)",
  },
  'A non-field error: the message in the language of Accept-Language.': {
    de: 'Ein Fehler ohne Feld: die Meldung in der Sprache von Accept-Language.',
    fr: "Une erreur sans champ : le message dans la langue d'Accept-Language.",
    it: 'Un errore senza campo: il messaggio nella lingua di Accept-Language.',
  },
  'Validation errors: the messages of each field that was refused (non_field_errors for the body as a whole).': {
    de: 'Validierungsfehler: die Meldungen jedes abgelehnten Felds (non_field_errors für den Inhalt als Ganzes).',
    fr: "Erreurs de validation : les messages de chaque champ refusé (non_field_errors pour le corps dans son ensemble).",
    it: 'Errori di validazione: i messaggi di ogni campo rifiutato (non_field_errors per il corpo nel suo insieme).',
  },
  'No active account with these credentials': {
    de: 'Kein aktives Konto mit diesen Anmeldedaten',
    fr: 'Aucun compte actif avec ces identifiants',
    it: 'Nessun account attivo con queste credenziali',
  },
  'Too many failed sign-ins: try again after Retry-After seconds': {
    de: 'Zu viele fehlgeschlagene Anmeldungen: erneut versuchen nach Retry-After Sekunden',
    fr: 'Trop de connexions échouées : réessayer après Retry-After secondes',
    it: 'Troppi accessi falliti: riprovare dopo Retry-After secondi',
  },
  'The refresh token is invalid, expired or revoked': {
    de: 'Das Erneuerungstoken ist ungültig, abgelaufen oder widerrufen',
    fr: 'Le jeton de renouvellement est invalide, expiré ou révoqué',
    it: 'Il token di rinnovo non è valido, è scaduto o revocato',
  },
  'The setup link is unknown, used or expired': {
    de: 'Der Einrichtungslink ist unbekannt, verwendet oder abgelaufen',
    fr: 'Le lien de mise en service est inconnu, utilisé ou expiré',
    it: 'Il link di configurazione è sconosciuto, usato o scaduto',
  },
  'A superuser exists already: sign in instead': {
    de: 'Es gibt bereits einen Superuser: melden Sie sich stattdessen an',
    fr: 'Un superutilisateur existe déjà : connectez-vous plutôt',
    it: 'Esiste già un superutente: acceda invece',
  },
  'Too many wrong setup links from this address: try again after Retry-After seconds': {
    de: 'Zu viele falsche Einrichtungslinks von dieser Adresse: erneut versuchen nach Retry-After Sekunden',
    fr: 'Trop de liens de mise en service erronés depuis cette adresse : réessayer après Retry-After secondes',
    it: 'Troppi link di configurazione errati da questo indirizzo: riprovare dopo Retry-After secondi',
  },
  'The installation id (or send the installation-id header).': {
    de: 'Die ID der Anlage (oder den Header installation-id senden).',
    fr: "L'identifiant de l'installation (ou envoyer l'en-tête installation-id).",
    it: "L'id dell'impianto (o inviare l'intestazione installation-id).",
  },
  'The link expired or is unknown.': { de: 'Der Link ist abgelaufen oder unbekannt.', fr: 'Le lien a expiré ou est inconnu.', it: 'Il link è scaduto o sconosciuto.' },
  'The level was none: the entry is gone.': {
    de: 'Die Stufe war none: der Eintrag ist gelöscht.',
    fr: "Le niveau était none : l'entrée est supprimée.",
    it: 'Il livello era none: la voce è stata eliminata.',
  },
  'The link expired, was used or is unknown': {
    de: 'Der Link ist abgelaufen, wurde verwendet oder ist unbekannt',
    fr: 'Le lien a expiré, a été utilisé ou est inconnu',
    it: 'Il link è scaduto, è stato usato o è sconosciuto',
  },
  'Rows per page, 1–500 (default 100)': { de: 'Zeilen pro Seite, 1–500 (Standard 100)', fr: 'Lignes par page, 1–500 (100 par défaut)', it: 'Righe per pagina, 1–500 (predefinito 100)' },
  'Rows to skip (the page starts after them)': {
    de: 'Zu überspringende Zeilen (die Seite beginnt danach)',
    fr: 'Lignes à sauter (la page commence après elles)',
    it: 'Righe da saltare (la pagina inizia dopo di esse)',
  },
  'Search in name and city (case-insensitive)': {
    de: 'Suche in Name und Ort (ohne Unterscheidung von Gross- und Kleinschreibung)',
    fr: 'Recherche dans le nom et la ville (sans distinction de casse)',
    it: 'Ricerca in nome e città (senza distinzione tra maiuscole e minuscole)',
  },
  'Not found: the field that names something not found here, or {detail}': {
    de: 'Nicht gefunden: das Feld, das etwas nennt, das es hier nicht gibt, oder {detail}',
    fr: "Introuvable : le champ qui nomme quelque chose d'introuvable ici, ou {detail}",
    it: 'Non trovato: il campo che nomina qualcosa che qui non esiste, oppure {detail}',
  },
  'Conflict: the field whose value is taken, or {detail} (e.g. a session is running)': {
    de: 'Konflikt: das Feld, dessen Wert vergeben ist, oder {detail} (z. B. ein Ladevorgang läuft)',
    fr: 'Conflit : le champ dont la valeur est déjà prise, ou {detail} (p. ex. une session est en cours)',
    it: 'Conflitto: il campo il cui valore è già occupato, oppure {detail} (ad es. una sessione è in corso)',
  },
  'Maximum charging power in kW, 1–350 (admins)': {
    de: 'Maximale Ladeleistung in kW, 1–350 (Administratoren)',
    fr: 'Puissance de recharge maximale en kW, 1–350 (administrateurs)',
    it: 'Potenza di ricarica massima in kW, 1–350 (amministratori)',
  },
  '1 or 3 phases (admins)': { de: '1 oder 3 Phasen (Administratoren)', fr: '1 ou 3 phases (administrateurs)', it: '1 o 3 fasi (amministratori)' },
  'Comma-separated user ids': { de: 'Kommagetrennte Benutzer-IDs', fr: "Identifiants d'utilisateurs séparés par des virgules", it: 'Id utente separati da virgole' },
  'Comma-separated display link ids; their Access carries user_id = −id': {
    de: 'Kommagetrennte IDs von Anzeige-Links; ihr Access trägt user_id = −id',
    fr: "Identifiants de liens d'affichage séparés par des virgules ; leur Access porte user_id = −id",
    it: 'Id di link di visualizzazione separati da virgole; il loro Access riporta user_id = −id',
  },
  "The car's energy need, kWh": { de: 'Der Energiebedarf des Fahrzeugs, kWh', fr: "Le besoin d'énergie de la voiture, kWh", it: "Il fabbisogno di energia dell'auto, kWh" },
  'The RFID card the car badges in with (a card of this installation); none: a guest without a badge': {
    de: 'Die RFID-Karte, mit der sich das Fahrzeug anmeldet (eine Karte dieser Anlage); keine: ein Gast ohne Karte',
    fr: "La carte RFID avec laquelle la voiture badge (une carte de cette installation) ; aucune : un invité sans badge",
    it: "La carta RFID con cui l'auto si identifica (una carta di questo impianto); nessuna: un ospite senza badge",
  },
  'The file (attachment)': { de: 'Die Datei (Anhang)', fr: 'Le fichier (pièce jointe)', it: 'Il file (allegato)' },
  'The invoice (attachment)': { de: 'Die Rechnung (Anhang)', fr: 'La facture (pièce jointe)', it: 'La fattura (allegato)' },
  'object, charging_station or meter (one meter)': {
    de: 'object, charging_station oder meter (ein einzelner Zähler)',
    fr: 'object, charging_station ou meter (un seul compteur)',
    it: 'object, charging_station o meter (un singolo contatore)',
  },
  'The meter of a …/meter/{meter_id} answer': {
    de: 'Der Zähler einer Antwort von …/meter/{meter_id}',
    fr: "Le compteur d'une réponse de …/meter/{meter_id}",
    it: 'Il contatore di una risposta di …/meter/{meter_id}',
  },
  'Relative folder path under the installation\'s reports folder, e.g. "exports/heat": folder names of letters, digits, ".", "_", "-" (not starting with "."), separated by "/"': {
    de: 'Relativer Ordnerpfad unter dem Berichtsordner der Anlage, z. B. "exports/heat": Ordnernamen aus Buchstaben, Ziffern, ".", "_", "-" (nicht mit "." beginnend), getrennt durch "/"',
    fr: 'Chemin de dossier relatif sous le dossier des rapports de l’installation, p. ex. "exports/heat" : noms de dossiers en lettres, chiffres, ".", "_", "-" (ne commençant pas par "."), séparés par "/"',
    it: 'Percorso di cartella relativo sotto la cartella dei report dell’impianto, ad es. "exports/heat": nomi di cartelle di lettere, cifre, ".", "_", "-" (che non iniziano con "."), separati da "/"',
  },
  'Mails enqueued': { de: 'In die Warteschlange gestellte E-Mails', fr: "E-mails mis en file d'attente", it: 'E-mail messe in coda' },
  "Files written, relative to the installation's reports folder": {
    de: 'Geschriebene Dateien, relativ zum Berichtsordner der Anlage',
    fr: "Fichiers écrits, relatifs au dossier des rapports de l'installation",
    it: "File scritti, relativi alla cartella dei report dell'impianto",
  },
  'Flat rate, % of the external standard product (0–80; used by the flat_rate model)': {
    de: 'Pauschale, % des externen Standardprodukts (0–80; vom Modell flat_rate verwendet)',
    fr: 'Forfait, % du produit standard externe (0–80 ; utilisé par le modèle flat_rate)',
    it: 'Forfait, % del prodotto standard esterno (0–80; usato dal modello flat_rate)',
  },
  'The YAML file (Content-Type: application/yaml)': { de: 'Die YAML-Datei (Content-Type: application/yaml)', fr: 'Le fichier YAML (Content-Type : application/yaml)', it: 'Il file YAML (Content-Type: application/yaml)' },
  'The line and field refused (`{"line 14, installations[0].meters[2].unit": ["…"]}`), or {detail}': {
    de: 'Die abgelehnte Zeile und das abgelehnte Feld (`{"line 14, installations[0].meters[2].unit": ["…"]}`) oder {detail}',
    fr: 'La ligne et le champ refusés (`{"line 14, installations[0].meters[2].unit": ["…"]}`), ou {detail}',
    it: 'La riga e il campo rifiutati (`{"line 14, installations[0].meters[2].unit": ["…"]}`), oppure {detail}',
  },
  'The file is larger than the limit of a configuration file (a JSON body: larger than 1 MB)': {
    de: 'Die Datei ist grösser als das Limit einer Konfigurationsdatei (ein JSON-Inhalt: grösser als 1 MB)',
    fr: "Le fichier dépasse la limite d'un fichier de configuration (un corps JSON : plus de 1 Mo)",
    it: 'Il file supera il limite di un file di configurazione (un corpo JSON: più di 1 MB)',
  },
  'The installation is archived': { de: 'Die Anlage ist archiviert', fr: "L'installation est archivée", it: "L'impianto è archiviato" },
  'No device key, or an unknown or revoked one': {
    de: 'Kein Geräteschlüssel oder ein unbekannter oder widerrufener',
    fr: "Aucune clé d'appareil, ou une clé inconnue ou révoquée",
    it: 'Nessuna chiave dispositivo, o una sconosciuta o revocata',
  },
  'Where the user goes next': { de: 'Wohin der Benutzer als Nächstes geht', fr: "Où l'utilisateur va ensuite", it: "Dove va l'utente dopo" },
  'The checkout page': { de: 'Die Bezahlseite', fr: 'La page de paiement', it: 'La pagina di pagamento' },
  'Redirect (Location) to the success, error or cancel path': {
    de: 'Weiterleitung (Location) zum Pfad für Erfolg, Fehler oder Abbruch',
    fr: "Redirection (Location) vers le chemin de succès, d'erreur ou d'annulation",
    it: 'Reindirizzamento (Location) al percorso di successo, errore o annullamento',
  },
  'The checkout session is unknown or expired': {
    de: 'Der Bezahlvorgang ist unbekannt oder abgelaufen',
    fr: 'La session de paiement est inconnue ou expirée',
    it: 'La sessione di pagamento è sconosciuta o scaduta',
  },
  'The provider could not record the result': {
    de: 'Der Anbieter konnte das Ergebnis nicht erfassen',
    fr: "Le prestataire n'a pas pu enregistrer le résultat",
    it: 'Il fornitore non ha potuto registrare il risultato',
  },
  'An IngestReading': { de: 'Ein IngestReading (Messwert)', fr: 'Un IngestReading (relevé)', it: 'Un IngestReading (lettura)' },
  'IngestReading items, at most 10000 (and 1 MB) per batch': {
    de: 'IngestReading-Einträge, höchstens 10000 (und 1 MB) pro Stapel',
    fr: "Éléments IngestReading, au plus 10000 (et 1 Mo) par lot",
    it: 'Elementi IngestReading, al massimo 10000 (e 1 MB) per lotto',
  },
  'More than 10,000 readings or more than 1 MB: the answer names the limit': {
    de: 'Mehr als 10’000 Messwerte oder mehr als 1 MB: die Antwort nennt das Limit',
    fr: 'Plus de 10 000 relevés ou plus de 1 Mo : la réponse indique la limite',
    it: 'Più di 10 000 letture o più di 1 MB: la risposta indica il limite',
  },
} satisfies Translations
