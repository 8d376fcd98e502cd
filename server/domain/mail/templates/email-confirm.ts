import type { Lang } from '../../../lib/messages.ts'
import { htmlPage, type RenderedMail } from './layout.ts'

type Texts = { subject: string; hello: (name: string) => string; body: string; action: string; expiry: (hours: number) => string; notYou: string }
const T: Record<Lang, Texts> = {
  en: {
    subject: 'Confirm the new sign-in e-mail of your Cockpit account',
    hello: (n) => (n ? `Hello ${n},` : 'Hello,'),
    body: 'Someone asked to use this address to sign in to a Cockpit account. The address changes once you confirm it with the button below.',
    action: 'Confirm this address',
    expiry: (h) => `The link can be used once and is valid for ${h} hours.`,
    notYou: 'If you did not ask for this, ignore this e-mail: nothing changes.',
  },
  de: {
    subject: 'Bestätigen Sie die neue Anmelde-E-Mail Ihres Cockpit-Kontos',
    hello: (n) => (n ? `Grüezi ${n}` : 'Grüezi'),
    body: 'Jemand möchte diese Adresse für die Anmeldung bei einem Cockpit-Konto verwenden. Die Adresse ändert sich, sobald Sie sie mit der Schaltfläche unten bestätigen.',
    action: 'Diese Adresse bestätigen',
    expiry: (h) => `Der Link kann einmal verwendet werden und ist ${h} Stunden gültig.`,
    notYou: 'Wenn Sie das nicht veranlasst haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.',
  },
  fr: {
    subject: 'Confirmez la nouvelle adresse de connexion de votre compte Cockpit',
    hello: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    body: 'Quelqu’un a demandé à utiliser cette adresse pour se connecter à un compte Cockpit. L’adresse change dès que vous la confirmez avec le bouton ci-dessous.',
    action: 'Confirmer cette adresse',
    expiry: (h) => `Le lien ne peut être utilisé qu’une fois et reste valable ${h} heures.`,
    notYou: 'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : rien ne change.',
  },
  it: {
    subject: 'Confermi il nuovo indirizzo di accesso del Suo account Cockpit',
    hello: (n) => (n ? `Buongiorno ${n},` : 'Buongiorno,'),
    body: 'Qualcuno ha chiesto di usare questo indirizzo per accedere a un account Cockpit. L’indirizzo cambia quando lo conferma con il pulsante qui sotto.',
    action: 'Conferma questo indirizzo',
    expiry: (h) => `Il link può essere usato una sola volta ed è valido per ${h} ore.`,
    notYou: 'Se non ha fatto Lei questa richiesta, ignori questa e-mail: non cambia nulla.',
  },
}

/**
 * The link mailed to a new sign-in address (docs/decisions.md "Accounts: an e-mail change is confirmed from
 * the new address"): `url` is the single-use confirmation link, valid `hours` hours.
 */
export function emailConfirmMail(lang: Lang, { name, url, hours }: { name: string; url: string; hours: number }): RenderedMail {
  const t = T[lang]
  const text = [t.hello(name), '', t.body, '', url, '', t.expiry(hours), t.notYou, '', 'Cockpit'].join('\n')
  return { subject: t.subject, text, html: htmlPage(lang, [t.hello(name), t.body], { label: t.action, url }, [t.expiry(hours), t.notYou]) }
}
