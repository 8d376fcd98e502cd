import type { Lang } from '../../lib/messages.ts'

/** Invoice wording in the four languages (typed: a missing translation fails type-checking). */
export const INVOICE_TEXTS = {
  en: {
    appFee: 'Monthly app fee (card payments)', month: 'Month', appFeeMessage: 'App fee {{id}}',
    vatIncluded: 'Prices include {{rate}} % VAT ({{amount}}). Card fees are extra.', vatNumber: 'VAT number', noPaymentDetails: 'The operator has not set its payment details yet: please ask your facility administrator how to pay.',
    title: 'Invoice', number: 'Invoice number', date: 'Date', facility: 'Facility', customer: 'Customer', station: 'Charging station',
    rfid: 'RFID', period: 'Charging period', energy: 'Energy', high: 'High tariff', low: 'Low tariff', flat: 'Flat tariff',
    subtotal: 'Energy price', fee: 'Transaction fee', total: 'Total', status: 'Status', paid: 'Paid on {{date}}', unpaid: 'Unpaid',
    vat: 'Prices include VAT. Card fees are extra.', qrNote: 'Please pay the amount with the QR-bill below.', message: 'Charging session {{id}}',
  },
  de: {
    appFee: 'Monatliche App-Gebühr (Kartenzahlung)', month: 'Monat', appFeeMessage: 'App-Gebühr {{id}}',
    vatIncluded: 'Preise inkl. {{rate}} % MWST ({{amount}}). Kartengebühren werden zusätzlich verrechnet.', vatNumber: 'MWST-Nummer', noPaymentDetails: 'Der Betreiber hat seine Zahlungsangaben noch nicht hinterlegt: Bitte fragen Sie Ihre Anlagenverwaltung, wie Sie bezahlen können.',
    title: 'Rechnung', number: 'Rechnungsnummer', date: 'Datum', facility: 'Anlage', customer: 'Kunde', station: 'Ladestation',
    rfid: 'RFID', period: 'Ladezeitraum', energy: 'Energie', high: 'Hochtarif', low: 'Niedertarif', flat: 'Einheitstarif',
    subtotal: 'Energiepreis', fee: 'Transaktionsgebühr', total: 'Total', status: 'Status', paid: 'Bezahlt am {{date}}', unpaid: 'Unbezahlt',
    vat: 'Preise inkl. MWST. Kartengebühren werden zusätzlich verrechnet.', qrNote: 'Bitte bezahlen Sie den Betrag mit dem QR-Einzahlungsschein unten.', message: 'Ladevorgang {{id}}',
  },
  fr: {
    appFee: 'Frais mensuels de l’application (paiement par carte)', month: 'Mois', appFeeMessage: 'Frais d’application {{id}}',
    vatIncluded: 'Prix TVA de {{rate}} % incluse ({{amount}}). Les frais de carte sont en sus.', vatNumber: 'Numéro de TVA', noPaymentDetails: 'L’exploitant n’a pas encore indiqué ses coordonnées de paiement : demandez à l’administration de l’installation comment payer.',
    title: 'Facture', number: 'Numéro de facture', date: 'Date', facility: 'Installation', customer: 'Client', station: 'Borne de recharge',
    rfid: 'RFID', period: 'Période de recharge', energy: 'Énergie', high: 'Tarif plein', low: 'Tarif réduit', flat: 'Tarif unique',
    subtotal: "Prix de l'énergie", fee: 'Frais de transaction', total: 'Total', status: 'Statut', paid: 'Payée le {{date}}', unpaid: 'Impayée',
    vat: 'Prix TVA incluse. Les frais de carte sont en sus.', qrNote: 'Veuillez payer le montant avec la QR-facture ci-dessous.', message: 'Session de recharge {{id}}',
  },
  it: {
    appFee: 'Canone mensile dell’app (pagamento con carta)', month: 'Mese', appFeeMessage: 'Canone dell’app {{id}}',
    vatIncluded: 'Prezzi IVA del {{rate}} % inclusa ({{amount}}). Le commissioni della carta sono a parte.', vatNumber: 'Numero IVA', noPaymentDetails: 'Il gestore non ha ancora indicato i dati di pagamento: chieda all’amministrazione della struttura come pagare.',
    title: 'Fattura', number: 'Numero di fattura', date: 'Data', facility: 'Struttura', customer: 'Cliente', station: 'Stazione di ricarica',
    rfid: 'RFID', period: 'Periodo di ricarica', energy: 'Energia', high: 'Tariffa alta', low: 'Tariffa bassa', flat: 'Tariffa unica',
    subtotal: "Prezzo dell'energia", fee: 'Commissione di transazione', total: 'Totale', status: 'Stato', paid: 'Pagata il {{date}}', unpaid: 'Non pagata',
    vat: 'Prezzi IVA inclusa. Le commissioni della carta sono a parte.', qrNote: "Si prega di pagare l'importo con la QR-fattura qui sotto.", message: 'Sessione di ricarica {{id}}',
  },
} satisfies Record<Lang, Record<string, string>>

export type InvoiceTextKey = keyof (typeof INVOICE_TEXTS)['en']

/** The invoice text `key` in `lang` with `{{name}}` placeholders filled. */
export function invoiceText(lang: Lang, key: InvoiceTextKey, params: Record<string, string | number> = {}): string {
  return INVOICE_TEXTS[lang][key].replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(params[k] ?? ''))
}
