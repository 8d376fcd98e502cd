import type { Translations } from './translations.ts'

/** Summaries of statistics, rates and tariffs, reports, payments and the ingestion of meter readings (SPEC §7). */
export const BILLING_SUMMARIES = {
  // statistics
  "The installation's series by bucket": { de: 'Die Zeitreihen der Anlage nach Intervall', fr: "Les séries de l'installation par intervalle", it: "Le serie dell'impianto per intervallo" },
  'The series summed over the period': { de: 'Die Zeitreihen, über den Zeitraum summiert', fr: 'Les séries totalisées sur la période', it: 'Le serie sommate sul periodo' },
  'Self-sufficiency and self-consumption of a chart period, compared with the previous period': {
    de: 'Autarkiegrad und Eigenverbrauch eines Diagrammzeitraums, verglichen mit dem vorherigen Zeitraum',
    fr: "Autarcie et autoconsommation d'une période du graphique, comparées à la période précédente",
    it: 'Autosufficienza e autoconsumo di un periodo del grafico, confrontati con il periodo precedente',
  },
  'Power flow series (kW)': { de: 'Zeitreihen des Energieflusses (kW)', fr: "Séries du flux d'énergie (kW)", it: 'Serie del flusso di energia (kW)' },
  'ZEV series and the allocation per consumption unit': {
    de: 'ZEV-Zeitreihen und die Aufteilung je Verbrauchseinheit',
    fr: 'Séries RCP et la répartition par unité de consommation',
    it: 'Serie RCP e la ripartizione per unità di consumo',
  },
  'Battery state of charge (%)': { de: 'Ladezustand der Batterie (%)', fr: 'État de charge de la batterie (%)', it: 'Stato di carica della batteria (%)' },
  'Heat series of an object': { de: 'Wärme-Zeitreihen eines Objekts', fr: "Séries de chaleur d'un objet", it: 'Serie di calore di un oggetto' },
  'Water series of an object': { de: 'Wasser-Zeitreihen eines Objekts', fr: "Séries d'eau d'un objet", it: "Serie dell'acqua di un oggetto" },
  'Series per readable charging station': { de: 'Zeitreihen je lesbarer Ladestation', fr: 'Séries par borne de recharge lisible', it: 'Serie per stazione di ricarica leggibile' },
  'Series of a section (electrical, water, heat, charging_station)': {
    de: 'Zeitreihen eines Bereichs (electrical, water, heat, charging_station)',
    fr: "Séries d'une section (electrical, water, heat, charging_station)",
    it: 'Serie di una sezione (electrical, water, heat, charging_station)',
  },
  'Series of an object, a charging station or one meter': {
    de: 'Zeitreihen eines Objekts, einer Ladestation oder eines einzelnen Zählers',
    fr: "Séries d'un objet, d'une borne de recharge ou d'un seul compteur",
    it: 'Serie di un oggetto, di una stazione di ricarica o di un singolo contatore',
  },
  // rates and the electricity tariff
  'Rates of a kind (power, water, heat)': { de: 'Tarife einer Art (Strom, Wasser, Wärme)', fr: "Tarifs d'un type (électricité, eau, chaleur)", it: 'Tariffe di un tipo (energia, acqua, calore)' },
  'Create a rate (admins)': { de: 'Einen Tarif erstellen (Administratoren)', fr: 'Créer un tarif (administrateurs)', it: 'Creare una tariffa (amministratori)' },
  'One rate': { de: 'Ein Tarif', fr: 'Un tarif', it: 'Una tariffa' },
  'Replace a rate (only while it is editable; admins)': {
    de: 'Einen Tarif ersetzen (nur solange er bearbeitbar ist; Administratoren)',
    fr: 'Remplacer un tarif (seulement tant qu’il est modifiable ; administrateurs)',
    it: 'Sostituire una tariffa (solo finché è modificabile; amministratori)',
  },
  'Rename a rate (admins)': { de: 'Einen Tarif umbenennen (Administratoren)', fr: 'Renommer un tarif (administrateurs)', it: 'Rinominare una tariffa (amministratori)' },
  'Delete a rate (admins)': { de: 'Einen Tarif löschen (Administratoren)', fr: 'Supprimer un tarif (administrateurs)', it: 'Eliminare una tariffa (amministratori)' },
  'The electricity tariff in force today': { de: 'Der heute gültige Stromtarif', fr: "Le tarif d'électricité en vigueur aujourd'hui", it: "La tariffa dell'elettricità in vigore oggi" },
  'Add or replace a tariff version from a day after today (admins)': {
    de: 'Eine Tarifversion ab einem Tag nach heute hinzufügen oder ersetzen (Administratoren)',
    fr: "Ajouter ou remplacer une version du tarif à partir d'un jour après aujourd'hui (administrateurs)",
    it: 'Aggiungere o sostituire una versione della tariffa a partire da un giorno dopo oggi (amministratori)',
  },
  'Every tariff version, newest first': { de: 'Jede Tarifversion, neueste zuerst', fr: "Chaque version du tarif, la plus récente d'abord", it: 'Ogni versione della tariffa, la più recente prima' },
  // reports
  'Reports of the installation (admins)': { de: 'Berichte der Anlage (Administratoren)', fr: "Rapports de l'installation (administrateurs)", it: "Report dell'impianto (amministratori)" },
  'Create a report (admins)': { de: 'Einen Bericht erstellen (Administratoren)', fr: 'Créer un rapport (administrateurs)', it: 'Creare un report (amministratori)' },
  'Send a report now for a calendar year (mails with CSV, PDF and XLSX attachments; the same files written to its output directory)': {
    de: 'Einen Bericht für ein Kalenderjahr jetzt senden (E-Mails mit CSV-, PDF- und XLSX-Anhängen; dieselben Dateien in sein Ausgabeverzeichnis geschrieben)',
    fr: 'Envoyer maintenant un rapport pour une année civile (e-mails avec pièces jointes CSV, PDF et XLSX ; les mêmes fichiers écrits dans son dossier de sortie)',
    it: "Inviare ora un report per un anno civile (e-mail con allegati CSV, PDF e XLSX; gli stessi file scritti nella sua cartella di destinazione)",
  },
  'The ZEV report settings (created on first use)': {
    de: 'Die Einstellungen des ZEV-Berichts (bei der ersten Verwendung erstellt)',
    fr: 'Les paramètres du rapport RCP (créés à la première utilisation)',
    it: 'Le impostazioni del report RCP (create al primo utilizzo)',
  },
  'Replace the ZEV report settings': { de: 'Die Einstellungen des ZEV-Berichts ersetzen', fr: 'Remplacer les paramètres du rapport RCP', it: 'Sostituire le impostazioni del report RCP' },
  'Change some ZEV report settings': {
    de: 'Einzelne Einstellungen des ZEV-Berichts ändern',
    fr: 'Modifier certains paramètres du rapport RCP',
    it: 'Modificare alcune impostazioni del report RCP',
  },
  'One report': { de: 'Ein Bericht', fr: 'Un rapport', it: 'Un report' },
  'Replace a report': { de: 'Einen Bericht ersetzen', fr: 'Remplacer un rapport', it: 'Sostituire un report' },
  'Change some fields of a report': { de: 'Einzelne Felder eines Berichts ändern', fr: "Modifier certains champs d'un rapport", it: 'Modificare alcuni campi di un report' },
  'Delete a report': { de: 'Einen Bericht löschen', fr: 'Supprimer un rapport', it: 'Eliminare un report' },
  // payments
  "A user's stored payment methods": { de: 'Die gespeicherten Zahlungsmethoden eines Benutzers', fr: "Les moyens de paiement enregistrés d'un utilisateur", it: 'I metodi di pagamento salvati di un utente' },
  'One stored payment method': { de: 'Eine gespeicherte Zahlungsmethode', fr: 'Un moyen de paiement enregistré', it: 'Un metodo di pagamento salvato' },
  'Set alias and favourite (primary) of a payment method': {
    de: 'Alias und Favorit (primär) einer Zahlungsmethode festlegen',
    fr: "Définir l'alias et le favori (principal) d'un moyen de paiement",
    it: "Impostare l'alias e il preferito (principale) di un metodo di pagamento",
  },
  'Change alias or favourite (favourite 1: make primary)': {
    de: 'Alias oder Favorit ändern (Favorit 1: zum primären machen)',
    fr: "Modifier l'alias ou le favori (favori 1 : rendre principal)",
    it: "Modificare l'alias o il preferito (preferito 1: rendere principale)",
  },
  'Delete a payment method': { de: 'Eine Zahlungsmethode löschen', fr: 'Supprimer un moyen de paiement', it: 'Eliminare un metodo di pagamento' },
  'Open a checkout at the payment provider; answers where to send the user': {
    de: 'Einen Bezahlvorgang beim Zahlungsanbieter eröffnen; antwortet, wohin der Benutzer zu leiten ist',
    fr: "Ouvrir un paiement chez le prestataire de paiement ; répond où envoyer l'utilisateur",
    it: "Aprire un pagamento presso il fornitore di pagamento; risponde dove inviare l'utente",
  },
  'Charge the unpaid sessions now (superusers)': {
    de: 'Die unbezahlten Ladevorgänge jetzt abrechnen (Superuser)',
    fr: 'Facturer maintenant les sessions impayées (superutilisateurs)',
    it: 'Addebitare ora le sessioni non pagate (superutenti)',
  },
  'A signed provider event (header x-demo-signature: HMAC-SHA256 of the raw JSON body)': {
    de: 'Ein signiertes Ereignis des Anbieters (Header x-demo-signature: HMAC-SHA256 des rohen JSON-Inhalts)',
    fr: 'Un événement signé du prestataire (en-tête x-demo-signature : HMAC-SHA256 du corps JSON brut)',
    it: 'Un evento firmato del fornitore (intestazione x-demo-signature: HMAC-SHA256 del corpo JSON grezzo)',
  },
  'A Stripe event (header Stripe-Signature, verified with STRIPE_WEBHOOK_SECRET): a saved card or TWINT, an expired checkout': {
    de: 'Ein Stripe-Ereignis (Header Stripe-Signature, geprüft mit STRIPE_WEBHOOK_SECRET): eine gespeicherte Karte oder TWINT, ein abgelaufener Bezahlvorgang',
    fr: 'Un événement Stripe (en-tête Stripe-Signature, vérifié avec STRIPE_WEBHOOK_SECRET) : une carte ou TWINT enregistré, un paiement expiré',
    it: 'Un evento Stripe (intestazione Stripe-Signature, verificata con STRIPE_WEBHOOK_SECRET): una carta o TWINT salvati, un pagamento scaduto',
  },
  "The DEMO provider's checkout page": { de: 'Die Bezahlseite des DEMO-Anbieters', fr: 'La page de paiement du prestataire DEMO', it: 'La pagina di pagamento del fornitore DEMO' },
  'Authorise or cancel on the DEMO checkout page (form post); redirects back to the app': {
    de: 'Auf der DEMO-Bezahlseite autorisieren oder abbrechen (Formularversand); leitet zurück zur App',
    fr: "Autoriser ou annuler sur la page de paiement DEMO (envoi de formulaire) ; redirige vers l'application",
    it: "Autorizzare o annullare sulla pagina di pagamento DEMO (invio di modulo); reindirizza all'app",
  },
  // ingestion
  "The installation's device keys, revoked ones included (admins)": {
    de: 'Die Geräteschlüssel der Anlage, widerrufene eingeschlossen (Administratoren)',
    fr: "Les clés d'appareil de l'installation, y compris les révoquées (administrateurs)",
    it: "Le chiavi dispositivo dell'impianto, comprese quelle revocate (amministratori)",
  },
  'Create a device key for the ingestion API, shown this once (admins)': {
    de: 'Einen Geräteschlüssel für die Einlese-API erstellen, nur dieses eine Mal angezeigt (Administratoren)',
    fr: "Créer une clé d'appareil pour l'API d'ingestion, affichée cette seule fois (administrateurs)",
    it: "Creare una chiave dispositivo per l'API di acquisizione, mostrata solo questa volta (amministratori)",
  },
  'Revoke a device key: it is refused from now on (admins)': {
    de: 'Einen Geräteschlüssel widerrufen: er wird ab sofort abgelehnt (Administratoren)',
    fr: "Révoquer une clé d'appareil : elle est refusée dès maintenant (administrateurs)",
    it: "Revocare una chiave dispositivo: d'ora in poi viene rifiutata (amministratori)",
  },
  "The meters a facility gateway reads: the device key's installation and its Modbus meters with their device settings": {
    de: 'Die Zähler, die ein Gateway vor Ort ausliest: die Anlage des Geräteschlüssels und ihre Modbus-Zähler mit ihren Geräteeinstellungen',
    fr: "Les compteurs que lit une passerelle sur site : l'installation de la clé d'appareil et ses compteurs Modbus avec leurs paramètres d'appareil",
    it: "I contatori che legge un gateway in loco: l'impianto della chiave dispositivo e i suoi contatori Modbus con le loro impostazioni",
  },
  "Send meter readings of the device key's installation (a batch of at most 10,000 readings and 1 MB)": {
    de: 'Messwerte der Anlage des Geräteschlüssels senden (ein Stapel von höchstens 10’000 Messwerten und 1 MB)',
    fr: "Envoyer des relevés de compteurs de l'installation de la clé d'appareil (un lot d'au plus 10 000 relevés et 1 Mo)",
    it: "Inviare letture di contatori dell'impianto della chiave dispositivo (un lotto di al massimo 10 000 letture e 1 MB)",
  },
} satisfies Translations
