import type { Lang } from '../../lib/messages.ts'

const TEXTS = {
  en: {
    title: 'Demo checkout', intro: 'Demo payment provider: no real card is charged. Authorising a card does not debit it.',
    method: 'Payment method', card: 'Credit card', twint: 'Twint', number: 'Card number', month: 'Expiry month', year: 'Expiry year',
    authorise: 'Authorise', cancel: 'Cancel', expired: 'This payment session has expired or is not valid.',
    testCards: 'Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 0069 expires this month, 4000 0000 0000 0341 is authorised but its charges are declined.',
  },
  de: {
    title: 'Demo-Zahlungsseite', intro: 'Demo-Zahlungsanbieter: Es wird keine echte Karte belastet. Das Autorisieren einer Karte belastet sie nicht.',
    method: 'Zahlungsmethode', card: 'Kreditkarte', twint: 'Twint', number: 'Kartennummer', month: 'Ablaufmonat', year: 'Ablaufjahr',
    authorise: 'Autorisieren', cancel: 'Abbrechen', expired: 'Diese Zahlungssitzung ist abgelaufen oder ungültig.',
    testCards: 'Testkarten: 4242 4242 4242 4242 gelingt, 4000 0000 0000 0002 wird abgelehnt, 4000 0000 0000 0069 läuft diesen Monat ab, 4000 0000 0000 0341 wird autorisiert, ihre Belastungen werden abgelehnt.',
  },
  fr: {
    title: 'Paiement de démonstration', intro: 'Prestataire de paiement de démonstration : aucune vraie carte n’est débitée. Autoriser une carte ne la débite pas.',
    method: 'Moyen de paiement', card: 'Carte de crédit', twint: 'Twint', number: 'Numéro de carte', month: 'Mois d’expiration', year: 'Année d’expiration',
    authorise: 'Autoriser', cancel: 'Annuler', expired: 'Cette session de paiement a expiré ou n’est pas valide.',
    testCards: 'Cartes de test : 4242 4242 4242 4242 réussit, 4000 0000 0000 0002 est refusée, 4000 0000 0000 0069 expire ce mois-ci, 4000 0000 0000 0341 est autorisée mais ses débits sont refusés.',
  },
  it: {
    title: 'Pagamento dimostrativo', intro: 'Fornitore di pagamento dimostrativo: nessuna carta reale viene addebitata. Autorizzare una carta non la addebita.',
    method: 'Metodo di pagamento', card: 'Carta di credito', twint: 'Twint', number: 'Numero della carta', month: 'Mese di scadenza', year: 'Anno di scadenza',
    authorise: 'Autorizza', cancel: 'Annulla', expired: 'Questa sessione di pagamento è scaduta o non è valida.',
    testCards: 'Carte di prova: 4242 4242 4242 4242 riesce, 4000 0000 0000 0002 viene rifiutata, 4000 0000 0000 0069 scade questo mese, 4000 0000 0000 0341 viene autorizzata ma i suoi addebiti vengono rifiutati.',
  },
} satisfies Record<Lang, Record<string, string>>

/**
 * The page's only inline content, its style sheet. The CSP (server/lib/security.ts) allows exactly this
 * text by its SHA-256, so it must not depend on the request.
 */
export const DEMO_CHECKOUT_STYLE = `
body{font-family:system-ui,sans-serif;margin:0;padding:1rem;background:#f8fafc;color:#0f172a}
main{max-width:28rem;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}fieldset label{display:inline-block;font-weight:400;margin-right:1rem}
fieldset{border:1px solid #e2e8f0;border-radius:.5rem}input[name=number],select{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
.row{display:flex;gap:.75rem;flex-wrap:wrap}.row>div{flex:1;min-width:7rem}.hint{font-size:.85rem;color:#475569}
button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem;border-radius:.5rem;border:0;background:#0f766e;color:#fff}
button.secondary{background:#e2e8f0;color:#0f172a}
`

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * The DEMO provider's hosted checkout page (server-rendered, no script): choose credit card or Twint,
 * enter a test card, authorise or cancel. Labels for every field, usable at 360 px. `session` null
 * renders the expired notice.
 */
export function demoCheckoutPage(lang: Lang, session: string | null, year: number): string {
  const T = TEXTS[lang]
  const years = Array.from({ length: 11 }, (_, i) => year + i)
  const body = session
    ? `<p>${esc(T.intro)}</p>
<form method="post" action="/api/payments/demo-checkout">
<input type="hidden" name="session" value="${esc(session)}">
<fieldset><legend>${esc(T.method)}</legend>
<label><input type="radio" name="kind" value="credit_card" checked> ${esc(T.card)}</label>
<label><input type="radio" name="kind" value="twint"> ${esc(T.twint)}</label></fieldset>
<label for="number">${esc(T.number)}</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" maxlength="23">
<div class="row"><div><label for="exp_month">${esc(T.month)}</label>
<select id="exp_month" name="exp_month">${Array.from({ length: 12 }, (_, i) => `<option value="${i + 1}">${String(i + 1).padStart(2, '0')}</option>`).join('')}</select></div>
<div><label for="exp_year">${esc(T.year)}</label>
<select id="exp_year" name="exp_year">${years.map((y) => `<option value="${y}">${y}</option>`).join('')}</select></div></div>
<p class="hint">${esc(T.testCards)}</p>
<div class="row"><button type="submit" name="action" value="authorise">${esc(T.authorise)}</button>
<button type="submit" name="action" value="cancel" class="secondary">${esc(T.cancel)}</button></div>
</form>`
    : `<p role="alert">${esc(T.expired)}</p>`
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(T.title)}</title>
<style>${DEMO_CHECKOUT_STYLE}</style></head>
<body><main><h1>${esc(T.title)}</h1>${body}</main></body></html>`
}
