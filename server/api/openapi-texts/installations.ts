import type { Translations } from './translations.ts'

/** Summaries of installations (setup, state, access, displays, configuration, load management, ZEV), live data and objects/meters (SPEC §7). */
export const INSTALLATION_SUMMARIES = {
  // setup and installations
  'Whether the first superuser is still to be created (no superuser exists), and how to sign in to the demo': {
    de: 'Ob der erste Superuser noch zu erstellen ist (es gibt noch keinen Superuser) und wie man sich bei der Demo anmeldet',
    fr: "Si le premier superutilisateur reste à créer (aucun superutilisateur n'existe) et comment se connecter à la démo",
    it: 'Se il primo superutente è ancora da creare (non esiste alcun superutente) e come accedere alla demo',
  },
  "Create the first superuser with the setup link's token and sign them in (the answer of sign-in)": {
    de: 'Den ersten Superuser mit dem Token des Einrichtungslinks erstellen und anmelden (die Antwort der Anmeldung)',
    fr: "Créer le premier superutilisateur avec le jeton du lien de mise en service et le connecter (la réponse de la connexion)",
    it: "Creare il primo superutente con il token del link di configurazione e farlo accedere (la risposta dell'accesso)",
  },
  "The caller's installations (archived ones with include_archived=true)": {
    de: 'Die Anlagen des Aufrufers (archivierte mit include_archived=true)',
    fr: "Les installations de l'appelant (les archivées avec include_archived=true)",
    it: 'Gli impianti del chiamante (quelli archiviati con include_archived=true)',
  },
  'Create an installation (superusers)': { de: 'Eine Anlage erstellen (Superuser)', fr: 'Créer une installation (superutilisateurs)', it: 'Creare un impianto (superutenti)' },
  "The operator's Installations list: online state, alerts, last data, stations charging (q searches name and city)": {
    de: 'Die Anlagenliste des Betreibers: Online-Zustand, Alarme, letzte Daten, ladende Stationen (q sucht in Name und Ort)',
    fr: "La liste des installations de l'exploitant : état en ligne, alertes, dernières données, bornes en recharge (q cherche dans le nom et la ville)",
    it: "L'elenco degli impianti del gestore: stato online, allarmi, ultimi dati, stazioni in ricarica (q cerca in nome e città)",
  },
  'One installation': { de: 'Eine Anlage', fr: 'Une installation', it: 'Un impianto' },
  'Change the settings of an installation: operator, name, time zone, address, position (admins)': {
    de: 'Die Einstellungen einer Anlage ändern: Betreiber, Name, Zeitzone, Adresse, Standort (Administratoren)',
    fr: "Modifier les paramètres d'une installation : exploitant, nom, fuseau horaire, adresse, position (administrateurs)",
    it: 'Modificare le impostazioni di un impianto: gestore, nome, fuso orario, indirizzo, posizione (amministratori)',
  },
  'Delete an installation without billing history (superusers; else archive it)': {
    de: 'Eine Anlage ohne Abrechnungshistorie löschen (Superuser; sonst archivieren)',
    fr: "Supprimer une installation sans historique de facturation (superutilisateurs ; sinon l'archiver)",
    it: 'Eliminare un impianto senza storico di fatturazione (superutenti; altrimenti archiviarlo)',
  },
  'Archive an installation: read-only, kept for its billing history (superusers)': {
    de: 'Eine Anlage archivieren: nur lesbar, für ihre Abrechnungshistorie aufbewahrt (Superuser)',
    fr: 'Archiver une installation : en lecture seule, conservée pour son historique de facturation (superutilisateurs)',
    it: 'Archiviare un impianto: in sola lettura, conservato per il suo storico di fatturazione (superutenti)',
  },
  'Take an installation out of the archive (superusers)': {
    de: 'Eine Anlage aus dem Archiv holen (Superuser)',
    fr: "Sortir une installation de l'archive (superutilisateurs)",
    it: "Togliere un impianto dall'archivio (superutenti)",
  },
  'Online state and active alerts': { de: 'Online-Zustand und aktive Alarme', fr: 'État en ligne et alertes actives', it: 'Stato online e allarmi attivi' },
  "Each meter's source, newest reading, its age, stale or not, and data quality (overview)": {
    de: 'Quelle, neuester Messwert und dessen Alter, veraltet oder nicht, und Datenqualität jedes Zählers (Übersicht)',
    fr: 'Pour chaque compteur : source, relevé le plus récent, son âge, périmé ou non, et qualité des données (aperçu)',
    it: "Per ogni contatore: fonte, lettura più recente, la sua età, obsoleta o no, e qualità dei dati (panoramica)",
  },
  'What the caller may see in the installation': { de: 'Was der Aufrufer in der Anlage sehen darf', fr: "Ce que l'appelant peut voir dans l'installation", it: "Ciò che il chiamante può vedere nell'impianto" },
  'A number that changes whenever rights change (superusers; the relay polls it)': {
    de: 'Eine Zahl, die sich bei jeder Änderung von Rechten ändert (Superuser; das Relay fragt sie ab)',
    fr: 'Un nombre qui change à chaque modification des droits (superutilisateurs ; le relais l’interroge)',
    it: 'Un numero che cambia a ogni modifica dei diritti (superutenti; il relay lo interroga)',
  },
  'The resolved rights of several users (superusers; the relay)': {
    de: 'Die aufgelösten Rechte mehrerer Benutzer (Superuser; das Relay)',
    fr: 'Les droits résolus de plusieurs utilisateurs (superutilisateurs ; le relais)',
    it: 'I diritti risolti di più utenti (superutenti; il relay)',
  },
  "Demo: cut or restore a simulated facility's connection (admins)": {
    de: 'Demo: die Verbindung einer simulierten Anlage trennen oder wiederherstellen (Administratoren)',
    fr: "Démo : couper ou rétablir la connexion d'un site simulé (administrateurs)",
    it: 'Demo: interrompere o ripristinare la connessione di un sito simulato (amministratori)',
  },
  'The ZEV billing model of the installation': { de: 'Das ZEV-Abrechnungsmodell der Anlage', fr: "Le modèle de décompte RCP de l'installation", it: "Il modello di conteggio RCP dell'impianto" },
  'Set the ZEV billing model (admins)': {
    de: 'Das ZEV-Abrechnungsmodell festlegen (Administratoren)',
    fr: 'Définir le modèle de décompte RCP (administrateurs)',
    it: 'Impostare il modello di conteggio RCP (amministratori)',
  },
  'Review a held charging session: correct its energy, release it as it is, or void it, with a reason recorded (admins)': {
    de: 'Einen zurückgehaltenen Ladevorgang prüfen: Energie korrigieren, unverändert freigeben oder stornieren, mit erfasstem Grund (Administratoren)',
    fr: 'Examiner une session de recharge retenue : corriger son énergie, la libérer telle quelle ou l’annuler, avec un motif enregistré (administrateurs)',
    it: 'Esaminare una sessione di ricarica trattenuta: correggerne l’energia, rilasciarla così com’è o annullarla, con un motivo registrato (amministratori)',
  },
  'End an open charging session by hand, with a reason recorded (a charger that never stopped it; admins)': {
    de: 'Einen offenen Ladevorgang von Hand beenden, mit erfasstem Grund (eine Ladestation, die ihn nie beendet hat; Administratoren)',
    fr: "Terminer à la main une session de recharge ouverte, avec un motif enregistré (une borne qui ne l'a jamais arrêtée ; administrateurs)",
    it: 'Terminare a mano una sessione di ricarica aperta, con un motivo registrato (una stazione che non l’ha mai fermata; amministratori)',
  },
  'Display links of the installation (admins; keys are never listed)': {
    de: 'Anzeige-Links der Anlage (Administratoren; Schlüssel werden nie aufgelistet)',
    fr: "Liens d'affichage de l'installation (administrateurs ; les clés ne sont jamais listées)",
    it: "Link di visualizzazione dell'impianto (amministratori; le chiavi non sono mai elencate)",
  },
  'Create a display link: a read-only key for a wall display, shown once in the url': {
    de: 'Einen Anzeige-Link erstellen: ein Nur-Lese-Schlüssel für eine Wandanzeige, einmal in der URL angezeigt',
    fr: "Créer un lien d'affichage : une clé en lecture seule pour un écran mural, affichée une seule fois dans l'URL",
    it: "Creare un link di visualizzazione: una chiave di sola lettura per uno schermo a parete, mostrata una sola volta nell'URL",
  },
  'Revoke a display link (its live streams close within one relay poll)': {
    de: 'Einen Anzeige-Link widerrufen (seine Live-Streams schliessen innerhalb einer Abfrage des Relays)',
    fr: "Révoquer un lien d'affichage (ses flux en direct se ferment en une interrogation du relais)",
    it: 'Revocare un link di visualizzazione (i suoi flussi in diretta si chiudono entro un’interrogazione del relay)',
  },
  'The display link the bearer key belongs to, and its installation (display keys only)': {
    de: 'Der Anzeige-Link, zu dem der Bearer-Schlüssel gehört, und seine Anlage (nur Anzeigeschlüssel)',
    fr: "Le lien d'affichage auquel appartient la clé bearer, et son installation (clés d'affichage uniquement)",
    it: 'Il link di visualizzazione a cui appartiene la chiave bearer, e il suo impianto (solo chiavi di visualizzazione)',
  },
  "Export the installation's configuration: settings, objects, meters, stations, tariffs, rates, users and permissions; no secrets or measurements (admins)": {
    de: 'Die Konfiguration der Anlage exportieren: Einstellungen, Objekte, Zähler, Stationen, Tarife, Preise, Benutzer und Berechtigungen; keine Geheimnisse und keine Messwerte (Administratoren)',
    fr: "Exporter la configuration de l'installation : paramètres, objets, compteurs, bornes, tarifs, prix, utilisateurs et autorisations ; ni secrets ni mesures (administrateurs)",
    it: "Esportare la configurazione dell'impianto: impostazioni, oggetti, contatori, stazioni, tariffe, prezzi, utenti e autorizzazioni; né segreti né misure (amministratori)",
  },
  'Import a configuration file (YAML) of one or more installations: a dry run shows what would change, else each installation is applied in one transaction (superusers for new installations, admins for theirs)': {
    de: 'Eine Konfigurationsdatei (YAML) einer oder mehrerer Anlagen importieren: ein Probelauf zeigt, was sich ändern würde, sonst wird jede Anlage in einer Transaktion übernommen (Superuser für neue Anlagen, Administratoren für ihre eigenen)',
    fr: "Importer un fichier de configuration (YAML) d'une ou plusieurs installations : un essai à blanc montre ce qui changerait, sinon chaque installation est appliquée en une transaction (superutilisateurs pour les nouvelles installations, administrateurs pour les leurs)",
    it: 'Importare un file di configurazione (YAML) di uno o più impianti: una prova mostra cosa cambierebbe, altrimenti ogni impianto è applicato in una transazione (superutenti per i nuovi impianti, amministratori per i propri)',
  },
  "Load management: grid limit, circuits, and each station's limit and reason (admins)": {
    de: 'Lastmanagement: Netzlimit, Stromkreise sowie Limit und Grund jeder Station (Administratoren)',
    fr: 'Gestion de charge : limite du réseau, circuits, et limite et motif de chaque borne (administrateurs)',
    it: 'Gestione del carico: limite di rete, circuiti, e limite e motivo di ogni stazione (amministratori)',
  },
  'Change load management: switch, grid limit (A and/or kW), circuit tree (admins)': {
    de: 'Lastmanagement ändern: Schalter, Netzlimit (A und/oder kW), Stromkreisbaum (Administratoren)',
    fr: 'Modifier la gestion de charge : activation, limite du réseau (A et/ou kW), arbre des circuits (administrateurs)',
    it: 'Modificare la gestione del carico: attivazione, limite di rete (A e/o kW), albero dei circuiti (amministratori)',
  },
  // live
  "The Overview screen: live power flow and today's totals": {
    de: 'Die Übersicht: aktueller Energiefluss und die Summen von heute',
    fr: "L'écran Aperçu : flux d'énergie en direct et totaux du jour",
    it: 'La schermata Panoramica: flusso di energia in tempo reale e totali di oggi',
  },
  'PV energy fed back to the grid: today, this month, this year': {
    de: 'Ins Netz eingespeiste PV-Energie: heute, diesen Monat, dieses Jahr',
    fr: 'Énergie PV injectée dans le réseau : aujourd’hui, ce mois, cette année',
    it: 'Energia FV immessa in rete: oggi, questo mese, quest’anno',
  },
  "The installation's live power flow": { de: 'Der aktuelle Energiefluss der Anlage', fr: "Le flux d'énergie en direct de l'installation", it: "Il flusso di energia in tempo reale dell'impianto" },
  'The live power flow': { de: 'Der aktuelle Energiefluss', fr: "Le flux d'énergie en direct", it: 'Il flusso di energia in tempo reale' },
  // objects and meters
  'The object hierarchy the caller may read (root nodes with their children)': {
    de: 'Die Objekthierarchie, die der Aufrufer lesen darf (Wurzelknoten mit ihren Kindern)',
    fr: "La hiérarchie d'objets que l'appelant peut lire (nœuds racines avec leurs enfants)",
    it: 'La gerarchia di oggetti che il chiamante può leggere (nodi radice con i loro figli)',
  },
  'Create an object: building, staircase, apartment, common area or garage (admins)': {
    de: 'Ein Objekt erstellen: Gebäude, Treppenhaus, Wohnung, Allgemeinfläche oder Garage (Administratoren)',
    fr: 'Créer un objet : bâtiment, cage d’escalier, appartement, partie commune ou garage (administrateurs)',
    it: 'Creare un oggetto: edificio, scala, appartamento, area comune o garage (amministratori)',
  },
  'One object node': { de: 'Ein Objektknoten', fr: "Un nœud d'objet", it: 'Un nodo oggetto' },
  'Rename, retype or move an object (admins)': {
    de: 'Ein Objekt umbenennen, seinen Typ ändern oder verschieben (Administratoren)',
    fr: 'Renommer un objet, changer son type ou le déplacer (administrateurs)',
    it: 'Rinominare un oggetto, cambiarne il tipo o spostarlo (amministratori)',
  },
  'Delete an empty object: no sub-objects, meters or stations (admins)': {
    de: 'Ein leeres Objekt löschen: ohne Unterobjekte, Zähler oder Stationen (Administratoren)',
    fr: 'Supprimer un objet vide : sans sous-objets, compteurs ni bornes (administrateurs)',
    it: 'Eliminare un oggetto vuoto: senza sotto-oggetti, contatori né stazioni (amministratori)',
  },
  'The meters of an object': { de: 'Die Zähler eines Objekts', fr: "Les compteurs d'un objet", it: 'I contatori di un oggetto' },
  'The meters of one type of an object': { de: 'Die Zähler eines Typs eines Objekts', fr: "Les compteurs d'un type d'un objet", it: 'I contatori di un tipo di un oggetto' },
  'The batteries meters': { de: 'Die Batteriezähler', fr: 'Les compteurs des batteries', it: 'I contatori delle batterie' },
  'The PV meters': { de: 'Die PV-Zähler', fr: 'Les compteurs PV', it: 'I contatori FV' },
  'The heat meters': { de: 'Die Wärmezähler', fr: 'Les compteurs de chaleur', it: 'I contatori di calore' },
  'The water meters': { de: 'Die Wasserzähler', fr: "Les compteurs d'eau", it: "I contatori dell'acqua" },
  'Meter categories and the visible meter count in each': {
    de: 'Zählerkategorien und die Anzahl sichtbarer Zähler in jeder',
    fr: 'Catégories de compteurs et le nombre de compteurs visibles dans chacune',
    it: 'Categorie di contatori e il numero di contatori visibili in ciascuna',
  },
  "The installation's meters with serial, unit, source (admins)": {
    de: 'Die Zähler der Anlage mit Seriennummer, Einheit, Quelle (Administratoren)',
    fr: "Les compteurs de l'installation avec numéro de série, unité, source (administrateurs)",
    it: "I contatori dell'impianto con numero di serie, unità, fonte (amministratori)",
  },
  'Create a meter on an object of the installation (admins)': {
    de: 'Einen Zähler an einem Objekt der Anlage erstellen (Administratoren)',
    fr: "Créer un compteur sur un objet de l'installation (administrateurs)",
    it: "Creare un contatore su un oggetto dell'impianto (amministratori)",
  },
  'Change a meter (admins)': { de: 'Einen Zähler ändern (Administratoren)', fr: 'Modifier un compteur (administrateurs)', it: 'Modificare un contatore (amministratori)' },
  'Delete a meter: archived with its measurements kept, or purged with them (admins)': {
    de: 'Einen Zähler löschen: archiviert mit seinen Messwerten oder mit ihnen endgültig entfernt (Administratoren)',
    fr: 'Supprimer un compteur : archivé avec ses mesures conservées, ou effacé avec elles (administrateurs)',
    it: 'Eliminare un contatore: archiviato conservandone le misure, o cancellato insieme a esse (amministratori)',
  },
} satisfies Translations
