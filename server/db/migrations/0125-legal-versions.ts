import { sql, type Kysely } from 'kysely'

/**
 * Legal texts with versions: each published version of a document (terms, privacy) with
 * its text in the four UI languages, when and by whom it was published. The newest version of a
 * document is the one everyone accepts; publishing a new one asks everyone again. The versions that
 * were built in before (2025-04-01) are stored with a starting text, so acceptances recorded against
 * them stay valid.
 */
const TERMS = {
  en: `Terms of use of the Cockpit portal

1. The portal shows the charging stations, meters, tariffs and charging sessions of the facility you were given access to by its operator.
2. Your access is personal. Keep your password secret and tell the facility administrator at once if you think someone else knows it.
3. Charging sessions are billed at the charging tariff shown under Pricing when the session took place. Prices include VAT; card fees are extra.
4. Unpaid sessions are charged to your stored payment method; a failed charge is retried within 24 hours.
5. The operator may change these terms. You will be asked to accept a new version when you next sign in.`,
  de: `Nutzungsbedingungen des Cockpit-Portals

1. Das Portal zeigt die Ladestationen, Zähler, Tarife und Ladevorgänge der Anlage, zu der Ihnen der Betreiber Zugang gegeben hat.
2. Ihr Zugang ist persönlich. Halten Sie Ihr Passwort geheim und melden Sie sich sofort beim Anlagenverwalter, wenn Sie glauben, dass jemand anderes es kennt.
3. Ladevorgänge werden zum Ladetarif abgerechnet, der zum Zeitpunkt des Ladevorgangs unter Preise angezeigt war. Die Preise enthalten die MWST; Kartengebühren kommen hinzu.
4. Unbezahlte Ladevorgänge werden Ihrem hinterlegten Zahlungsmittel belastet; eine fehlgeschlagene Belastung wird innerhalb von 24 Stunden wiederholt.
5. Der Betreiber kann diese Bedingungen ändern. Bei der nächsten Anmeldung werden Sie gebeten, eine neue Fassung zu akzeptieren.`,
  fr: `Conditions d'utilisation du portail Cockpit

1. Le portail affiche les bornes de recharge, compteurs, tarifs et recharges de l'installation à laquelle l'exploitant vous a donné accès.
2. Votre accès est personnel. Gardez votre mot de passe secret et informez immédiatement l'administrateur de l'installation si vous pensez qu'une autre personne le connaît.
3. Les recharges sont facturées au tarif de recharge affiché sous Tarifs au moment de la recharge. Les prix incluent la TVA ; les frais de carte s'y ajoutent.
4. Les recharges impayées sont débitées de votre moyen de paiement enregistré ; un débit refusé est retenté dans les 24 heures.
5. L'exploitant peut modifier ces conditions. Il vous sera demandé d'accepter une nouvelle version lors de votre prochaine connexion.`,
  it: `Condizioni d'uso del portale Cockpit

1. Il portale mostra le stazioni di ricarica, i contatori, le tariffe e le ricariche dell'impianto a cui il gestore Le ha dato accesso.
2. Il Suo accesso è personale. Mantenga segreta la password e avvisi subito l'amministratore dell'impianto se pensa che un'altra persona la conosca.
3. Le ricariche sono fatturate alla tariffa di ricarica indicata in Prezzi al momento della ricarica. I prezzi includono l'IVA; le commissioni delle carte sono a parte.
4. Le ricariche non pagate sono addebitate sul mezzo di pagamento registrato; un addebito non riuscito viene ritentato entro 24 ore.
5. Il gestore può modificare queste condizioni. Al prossimo accesso Le sarà chiesto di accettare una nuova versione.`,
}
const PRIVACY = {
  en: `Privacy policy of the Cockpit portal

1. We process your name, e-mail address, language, address and telephone number to give you access and to send invoices and notices.
2. We record your charging sessions (station, RFID card, times, energy, price) to bill them and to show them to you and to the facility administrators.
3. Card payments are processed by the payment provider; we keep only a masked card number and its expiry date.
4. Data is kept as long as your account exists and as the law requires for invoices.
5. You can see and correct your data under Settings and delete your profile there once nothing is left unpaid. Questions: write to support.`,
  de: `Datenschutzerklärung des Cockpit-Portals

1. Wir bearbeiten Ihren Namen, Ihre E-Mail-Adresse, Sprache, Adresse und Telefonnummer, um Ihnen Zugang zu geben und Rechnungen und Mitteilungen zu senden.
2. Wir erfassen Ihre Ladevorgänge (Station, RFID-Karte, Zeiten, Energie, Preis), um sie abzurechnen und Ihnen und den Anlagenverwaltern anzuzeigen.
3. Kartenzahlungen wickelt der Zahlungsanbieter ab; wir speichern nur eine maskierte Kartennummer und das Ablaufdatum.
4. Daten werden aufbewahrt, solange Ihr Konto besteht und wie es das Gesetz für Rechnungen verlangt.
5. Unter Einstellungen können Sie Ihre Daten einsehen und berichtigen und Ihr Profil löschen, sobald nichts mehr offen ist. Fragen: schreiben Sie dem Support.`,
  fr: `Politique de confidentialité du portail Cockpit

1. Nous traitons votre nom, votre adresse e-mail, votre langue, votre adresse et votre numéro de téléphone pour vous donner accès et vous envoyer factures et avis.
2. Nous enregistrons vos recharges (borne, carte RFID, heures, énergie, prix) pour les facturer et vous les montrer, ainsi qu'aux administrateurs de l'installation.
3. Les paiements par carte sont traités par le prestataire de paiement ; nous ne gardons qu'un numéro de carte masqué et sa date d'expiration.
4. Les données sont conservées tant que votre compte existe et aussi longtemps que la loi l'exige pour les factures.
5. Sous Paramètres, vous pouvez consulter et corriger vos données et supprimer votre profil dès que rien n'est impayé. Questions : écrivez au support.`,
  it: `Informativa sulla privacy del portale Cockpit

1. Trattiamo il Suo nome, indirizzo e-mail, lingua, indirizzo e numero di telefono per darLe accesso e inviarLe fatture e avvisi.
2. Registriamo le Sue ricariche (stazione, carta RFID, orari, energia, prezzo) per fatturarle e mostrarle a Lei e agli amministratori dell'impianto.
3. I pagamenti con carta sono gestiti dal fornitore di pagamento; conserviamo solo un numero di carta mascherato e la data di scadenza.
4. I dati sono conservati finché esiste il Suo account e per quanto la legge lo richiede per le fatture.
5. In Impostazioni può consultare e correggere i Suoi dati ed eliminare il profilo quando non resta nulla da pagare. Domande: scriva al supporto.`,
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE legal_versions (
      id serial PRIMARY KEY,
      document text NOT NULL CHECK (document IN ('terms', 'privacy')),
      version text NOT NULL,
      texts jsonb NOT NULL,
      published_at timestamptz NOT NULL DEFAULT now(),
      published_by integer REFERENCES users(id) ON DELETE SET NULL,
      UNIQUE (document, version)
    )`.execute(db)
  await sql`INSERT INTO legal_versions (document, version, texts, published_at) VALUES
    ('terms', '2025-04-01', ${JSON.stringify(TERMS)}::jsonb, '2025-04-01T00:00:00Z'),
    ('privacy', '2025-04-01', ${JSON.stringify(PRIVACY)}::jsonb, '2025-04-01T00:00:00Z')`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE legal_versions`.execute(db)
}
