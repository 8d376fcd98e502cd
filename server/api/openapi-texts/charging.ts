import type { Translations } from './translations.ts'

/** Summaries of charging stations (OCPP, charge plans, demo), charging sessions, RFID cards and timers (SPEC §7). */
export const CHARGING_SUMMARIES = {
  // stations
  'Charging stations the caller may read': { de: 'Ladestationen, die der Aufrufer lesen darf', fr: "Bornes de recharge que l'appelant peut lire", it: 'Stazioni di ricarica che il chiamante può leggere' },
  'Change several charging stations (each with its id)': {
    de: 'Mehrere Ladestationen ändern (jede mit ihrer ID)',
    fr: 'Modifier plusieurs bornes de recharge (chacune avec son identifiant)',
    it: 'Modificare più stazioni di ricarica (ognuna con il suo id)',
  },
  'Create a charging station with its meter and, given an OCPP id, its charge point password shown once (admins)': {
    de: 'Eine Ladestation mit ihrem Zähler erstellen und, mit einer OCPP-ID, ihr Ladepunkt-Passwort einmal anzeigen (Administratoren)',
    fr: 'Créer une borne de recharge avec son compteur et, avec un identifiant OCPP, le mot de passe de son point de charge affiché une seule fois (administrateurs)',
    it: 'Creare una stazione di ricarica con il suo contatore e, dato un id OCPP, la password del suo punto di ricarica mostrata una sola volta (amministratori)',
  },
  'One charging station': { de: 'Eine Ladestation', fr: 'Une borne de recharge', it: 'Una stazione di ricarica' },
  'Change a charging station (name, mode, learning mode; capacity and phases: admins)': {
    de: 'Eine Ladestation ändern (Name, Modus, Lernmodus; Leistung und Phasen: Administratoren)',
    fr: "Modifier une borne de recharge (nom, mode, mode d'apprentissage ; puissance et phases : administrateurs)",
    it: 'Modificare una stazione di ricarica (nome, modalità, modalità di apprendimento; potenza e fasi: amministratori)',
  },
  'Change a charging station (behaves like PATCH)': {
    de: 'Eine Ladestation ändern (verhält sich wie PATCH)',
    fr: 'Modifier une borne de recharge (se comporte comme PATCH)',
    it: 'Modificare una stazione di ricarica (si comporta come PATCH)',
  },
  'Delete a charging station; its sessions stay (admins; 409 while charging)': {
    de: 'Eine Ladestation löschen; ihre Ladevorgänge bleiben (Administratoren; 409 während des Ladens)',
    fr: 'Supprimer une borne de recharge ; ses sessions restent (administrateurs ; 409 pendant une recharge)',
    it: 'Eliminare una stazione di ricarica; le sue sessioni restano (amministratori; 409 durante la ricarica)',
  },
  'Charging stations of the installation (alias)': { de: 'Ladestationen der Anlage (Alias)', fr: "Bornes de recharge de l'installation (alias)", it: "Stazioni di ricarica dell'impianto (alias)" },
  'Change a charging station (alias)': { de: 'Eine Ladestation ändern (Alias)', fr: 'Modifier une borne de recharge (alias)', it: 'Modificare una stazione di ricarica (alias)' },
  'Turn off (lock) one station, or every station (admins)': {
    de: 'Eine Station oder alle Stationen ausschalten (sperren) (Administratoren)',
    fr: 'Éteindre (verrouiller) une borne, ou toutes les bornes (administrateurs)',
    it: 'Spegnere (bloccare) una stazione, o tutte le stazioni (amministratori)',
  },
  'Object nodes with their readable stations': { de: 'Objektknoten mit ihren lesbaren Stationen', fr: "Nœuds d'objet avec leurs bornes lisibles", it: 'Nodi oggetto con le loro stazioni leggibili' },
  'Object nodes that hold readable stations': { de: 'Objektknoten, die lesbare Stationen enthalten', fr: "Nœuds d'objet qui contiennent des bornes lisibles", it: 'Nodi oggetto che contengono stazioni leggibili' },
  'Readable stations by display status, total power': {
    de: 'Lesbare Stationen nach Anzeigestatus, Gesamtleistung',
    fr: "Bornes lisibles par état d'affichage, puissance totale",
    it: 'Stazioni leggibili per stato di visualizzazione, potenza totale',
  },
  'Readable stations in an object and its descendants': {
    de: 'Lesbare Stationen in einem Objekt und seinen Unterobjekten',
    fr: 'Bornes lisibles dans un objet et ses descendants',
    it: 'Stazioni leggibili in un oggetto e nei suoi discendenti',
  },
  'The journal of a station': { de: 'Das Journal einer Station', fr: "Le journal d'une borne", it: 'Il giornale di una stazione' },
  'Demo: plug a guest car in at a simulated station (admins)': {
    de: 'Demo: ein Gastfahrzeug an einer simulierten Station einstecken (Administratoren)',
    fr: 'Démo : brancher une voiture invitée sur une borne simulée (administrateurs)',
    it: "Demo: collegare un'auto ospite a una stazione simulata (amministratori)",
  },
  'Demo: the car plugged in by plug_in leaves now (admins)': {
    de: 'Demo: das mit plug_in eingesteckte Fahrzeug fährt jetzt weg (Administratoren)',
    fr: 'Démo : la voiture branchée par plug_in part maintenant (administrateurs)',
    it: "Demo: l'auto collegata con plug_in parte ora (amministratori)",
  },
  "The station's OCPP charge point: boot data, connection, message counts": {
    de: 'Der OCPP-Ladepunkt der Station: Boot-Daten, Verbindung, Anzahl Meldungen',
    fr: 'Le point de charge OCPP de la borne : données de démarrage, connexion, nombre de messages',
    it: 'Il punto di ricarica OCPP della stazione: dati di avvio, connessione, numero di messaggi',
  },
  'Bind the station to an OCPP charge point and set its password, shown once (admins)': {
    de: 'Die Station an einen OCPP-Ladepunkt binden und sein Passwort festlegen, einmal angezeigt (Administratoren)',
    fr: 'Lier la borne à un point de charge OCPP et définir son mot de passe, affiché une seule fois (administrateurs)',
    it: 'Collegare la stazione a un punto di ricarica OCPP e impostarne la password, mostrata una sola volta (amministratori)',
  },
  'Unbind the station from its OCPP charge point (admins)': {
    de: 'Die Station von ihrem OCPP-Ladepunkt lösen (Administratoren)',
    fr: 'Délier la borne de son point de charge OCPP (administrateurs)',
    it: 'Scollegare la stazione dal suo punto di ricarica OCPP (amministratori)',
  },
  'Send RemoteStartTransaction (id_tag: a card of the installation), RemoteStopTransaction or UnlockConnector to the charge point; queued while it is offline (admins)': {
    de: 'RemoteStartTransaction (id_tag: eine Karte der Anlage), RemoteStopTransaction oder UnlockConnector an den Ladepunkt senden; in der Warteschlange, solange er offline ist (Administratoren)',
    fr: "Envoyer RemoteStartTransaction (id_tag : une carte de l'installation), RemoteStopTransaction ou UnlockConnector au point de charge ; mis en file d'attente tant qu'il est hors ligne (administrateurs)",
    it: "Inviare RemoteStartTransaction (id_tag: una carta dell'impianto), RemoteStopTransaction o UnlockConnector al punto di ricarica; in coda finché è offline (amministratori)",
  },
  "Give the station's OCPP charge point a new password, shown once; the old one stops working (admins)": {
    de: 'Dem OCPP-Ladepunkt der Station ein neues Passwort geben, einmal angezeigt; das alte gilt nicht mehr (Administratoren)',
    fr: "Donner un nouveau mot de passe au point de charge OCPP de la borne, affiché une seule fois ; l'ancien ne fonctionne plus (administrateurs)",
    it: 'Dare una nuova password al punto di ricarica OCPP della stazione, mostrata una sola volta; la vecchia non funziona più (amministratori)',
  },
  'The charge plan of the session running at a station, with its planned slots (null: none)': {
    de: 'Der Ladeplan des laufenden Ladevorgangs an einer Station, mit seinen geplanten Zeitfenstern (null: keiner)',
    fr: 'Le plan de recharge de la session en cours à une borne, avec ses créneaux prévus (null : aucun)',
    it: 'Il piano di ricarica della sessione in corso a una stazione, con le sue fasce pianificate (null: nessuno)',
  },
  'Set the charge plan of the session running at a station: kWh or "full" by a time, once or on weekdays': {
    de: 'Den Ladeplan des laufenden Ladevorgangs an einer Station festlegen: kWh oder «full» bis zu einer Uhrzeit, einmal oder an Wochentagen',
    fr: 'Définir le plan de recharge de la session en cours à une borne : kWh ou « full » pour une heure donnée, une fois ou certains jours de la semaine',
    it: 'Impostare il piano di ricarica della sessione in corso a una stazione: kWh o «full» entro un orario, una volta o in giorni della settimana',
  },
  'Remove the charge plan of the session running at a station': {
    de: 'Den Ladeplan des laufenden Ladevorgangs an einer Station entfernen',
    fr: 'Supprimer le plan de recharge de la session en cours à une borne',
    it: 'Rimuovere il piano di ricarica della sessione in corso a una stazione',
  },
  // sessions
  'Charging sessions of the installation, running first, then newest first, with the totals of the period': {
    de: 'Ladevorgänge der Anlage, laufende zuerst, dann neueste zuerst, mit den Summen des Zeitraums',
    fr: "Sessions de recharge de l'installation, en cours d'abord, puis les plus récentes, avec les totaux de la période",
    it: "Sessioni di ricarica dell'impianto, prima quelle in corso, poi le più recenti, con i totali del periodo",
  },
  'The charging sessions of a period as CSV or XLSX (running first, with a total row)': {
    de: 'Die Ladevorgänge eines Zeitraums als CSV oder XLSX (laufende zuerst, mit einer Summenzeile)',
    fr: "Les sessions de recharge d'une période en CSV ou XLSX (en cours d'abord, avec une ligne de total)",
    it: 'Le sessioni di ricarica di un periodo in CSV o XLSX (prima quelle in corso, con una riga di totale)',
  },
  'One charging session': { de: 'Ein Ladevorgang', fr: 'Une session de recharge', it: 'Una sessione di ricarica' },
  'The PDF invoice of an ended session (lang or Accept-Language picks its language)': {
    de: 'Die PDF-Rechnung eines beendeten Ladevorgangs (lang oder Accept-Language wählt ihre Sprache)',
    fr: "La facture PDF d'une session terminée (lang ou Accept-Language en choisit la langue)",
    it: 'La fattura PDF di una sessione terminata (lang o Accept-Language ne sceglie la lingua)',
  },
  // RFID cards
  'RFID cards of the installation the caller may read': {
    de: 'RFID-Karten der Anlage, die der Aufrufer lesen darf',
    fr: "Cartes RFID de l'installation que l'appelant peut lire",
    it: "Carte RFID dell'impianto che il chiamante può leggere",
  },
  'Create an RFID card (admins)': { de: 'Eine RFID-Karte erstellen (Administratoren)', fr: 'Créer une carte RFID (administrateurs)', it: 'Creare una carta RFID (amministratori)' },
  'One RFID card': { de: 'Eine RFID-Karte', fr: 'Une carte RFID', it: 'Una carta RFID' },
  'Change an RFID card (PUT behaves like PATCH)': {
    de: 'Eine RFID-Karte ändern (PUT verhält sich wie PATCH)',
    fr: 'Modifier une carte RFID (PUT se comporte comme PATCH)',
    it: 'Modificare una carta RFID (PUT si comporta come PATCH)',
  },
  'Deactivate an RFID card (admins)': { de: 'Eine RFID-Karte deaktivieren (Administratoren)', fr: 'Désactiver une carte RFID (administrateurs)', it: 'Disattivare una carta RFID (amministratori)' },
  'The journal of an RFID card': { de: 'Das Journal einer RFID-Karte', fr: "Le journal d'une carte RFID", it: 'Il giornale di una carta RFID' },
  'Register the tag the station learned (learning mode)': {
    de: 'Die von der Station eingelernte Karte registrieren (Lernmodus)',
    fr: "Enregistrer le badge appris par la borne (mode d'apprentissage)",
    it: 'Registrare il badge appreso dalla stazione (modalità di apprendimento)',
  },
  'Ignore the tag the station learned': { de: 'Die von der Station eingelernte Karte ignorieren', fr: 'Ignorer le badge appris par la borne', it: 'Ignorare il badge appreso dalla stazione' },
  'Order new RFID cards (CHF 25 each)': { de: 'Neue RFID-Karten bestellen (je CHF 25)', fr: 'Commander de nouvelles cartes RFID (CHF 25 pièce)', it: 'Ordinare nuove carte RFID (CHF 25 ciascuna)' },
  'Tags learned by stations, waiting to be registered': {
    de: 'Von Stationen eingelernte Karten, die auf ihre Registrierung warten',
    fr: 'Badges appris par les bornes, en attente d’enregistrement',
    it: 'Badge appresi dalle stazioni, in attesa di registrazione',
  },
  "RFID cards of all the caller's installations": { de: 'RFID-Karten aller Anlagen des Aufrufers', fr: "Cartes RFID de toutes les installations de l'appelant", it: 'Carte RFID di tutti gli impianti del chiamante' },
  'Create an RFID card in the installation (admins)': {
    de: 'Eine RFID-Karte in der Anlage erstellen (Administratoren)',
    fr: "Créer une carte RFID dans l'installation (administrateurs)",
    it: "Creare una carta RFID nell'impianto (amministratori)",
  },
  'The stations the card may charge at': { de: 'Die Stationen, an denen die Karte laden darf', fr: 'Les bornes où la carte peut recharger', it: 'Le stazioni in cui la carta può ricaricare' },
  'Add stations (by device id) to the card (admins)': {
    de: 'Der Karte Stationen hinzufügen (nach Geräte-ID) (Administratoren)',
    fr: "Ajouter des bornes (par identifiant d'appareil) à la carte (administrateurs)",
    it: 'Aggiungere stazioni (per id dispositivo) alla carta (amministratori)',
  },
  "Replace the card's stations (by device id; admins)": {
    de: 'Die Stationen der Karte ersetzen (nach Geräte-ID; Administratoren)',
    fr: "Remplacer les bornes de la carte (par identifiant d'appareil ; administrateurs)",
    it: 'Sostituire le stazioni della carta (per id dispositivo; amministratori)',
  },
  'Remove a station (by device id) from the card (admins)': {
    de: 'Eine Station (nach Geräte-ID) von der Karte entfernen (Administratoren)',
    fr: "Retirer une borne (par identifiant d'appareil) de la carte (administrateurs)",
    it: 'Rimuovere una stazione (per id dispositivo) dalla carta (amministratori)',
  },
  'The RFID cards allowed at a station': { de: 'Die an einer Station zugelassenen RFID-Karten', fr: 'Les cartes RFID autorisées à une borne', it: 'Le carte RFID ammesse a una stazione' },
  'The charge plan of an RFID card, with its planned slots (null: none)': {
    de: 'Der Ladeplan einer RFID-Karte, mit seinen geplanten Zeitfenstern (null: keiner)',
    fr: "Le plan de recharge d'une carte RFID, avec ses créneaux prévus (null : aucun)",
    it: 'Il piano di ricarica di una carta RFID, con le sue fasce pianificate (null: nessuno)',
  },
  'Set the charge plan of an RFID card: kWh or "full" by a time, once or on weekdays': {
    de: 'Den Ladeplan einer RFID-Karte festlegen: kWh oder «full» bis zu einer Uhrzeit, einmal oder an Wochentagen',
    fr: "Définir le plan de recharge d'une carte RFID : kWh ou « full » pour une heure donnée, une fois ou certains jours de la semaine",
    it: 'Impostare il piano di ricarica di una carta RFID: kWh o «full» entro un orario, una volta o in giorni della settimana',
  },
  'Remove the charge plan of an RFID card': { de: 'Den Ladeplan einer RFID-Karte entfernen', fr: "Supprimer le plan de recharge d'une carte RFID", it: 'Rimuovere il piano di ricarica di una carta RFID' },
  // timers
  'Timers of the objects the caller may read': { de: 'Timer der Objekte, die der Aufrufer lesen darf', fr: "Minuteries des objets que l'appelant peut lire", it: 'Timer degli oggetti che il chiamante può leggere' },
  'Create a timer (admins)': { de: 'Einen Timer erstellen (Administratoren)', fr: 'Créer une minuterie (administrateurs)', it: 'Creare un timer (amministratori)' },
  'One timer': { de: 'Ein Timer', fr: 'Une minuterie', it: 'Un timer' },
  'Change a timer (admins; PUT behaves like PATCH)': {
    de: 'Einen Timer ändern (Administratoren; PUT verhält sich wie PATCH)',
    fr: 'Modifier une minuterie (administrateurs ; PUT se comporte comme PATCH)',
    it: 'Modificare un timer (amministratori; PUT si comporta come PATCH)',
  },
  'Delete a timer (admins)': { de: 'Einen Timer löschen (Administratoren)', fr: 'Supprimer une minuterie (administrateurs)', it: 'Eliminare un timer (amministratori)' },
} satisfies Translations
