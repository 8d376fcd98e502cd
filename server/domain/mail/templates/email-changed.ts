import type { Lang } from '../../../lib/messages.ts'
import { htmlPage, type RenderedMail } from './layout.ts'

type Texts = { subject: string; hello: (name: string) => string; body: (to: string) => string; action: string; expiry: (days: number) => string; notYou: string; fine: string }
const T: Record<Lang, Texts> = {
  en: {
    subject: 'The sign-in e-mail of your Cockpit account was changed',
    hello: (n) => (n ? `Hello ${n},` : 'Hello,'),
    body: (to) => `The e-mail address you use to sign in to Cockpit was changed to ${to}. From now on, messages go to that address.`,
    action: 'Restore my previous address',
    expiry: (d) => `If you did not make this change, open the link below: it restores this address and signs out every session. The link can be used once and is valid for ${d} days.`,
    notYou: 'Then change your password with “Forgot password?” on the sign-in page.',
    fine: 'If you made this change yourself, you do not need to do anything.',
  },
  de: {
    subject: 'Die Anmelde-E-Mail Ihres Cockpit-Kontos wurde geändert',
    hello: (n) => (n ? `Grüezi ${n}` : 'Grüezi'),
    body: (to) => `Die E-Mail-Adresse, mit der Sie sich bei Cockpit anmelden, wurde in ${to} geändert. Nachrichten gehen ab jetzt an diese Adresse.`,
    action: 'Meine bisherige Adresse wiederherstellen',
    expiry: (d) => `Wenn Sie diese Änderung nicht vorgenommen haben, öffnen Sie den Link unten: Er stellt diese Adresse wieder her und meldet alle Sitzungen ab. Der Link kann einmal verwendet werden und ist ${d} Tage gültig.`,
    notYou: 'Ändern Sie danach Ihr Passwort mit «Passwort vergessen?» auf der Anmeldeseite.',
    fine: 'Wenn Sie die Änderung selbst vorgenommen haben, müssen Sie nichts tun.',
  },
  fr: {
    subject: 'L’e-mail de connexion de votre compte Cockpit a été modifié',
    hello: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    body: (to) => `L’adresse e-mail avec laquelle vous vous connectez à Cockpit a été remplacée par ${to}. Les messages sont désormais envoyés à cette adresse.`,
    action: 'Rétablir mon ancienne adresse',
    expiry: (d) => `Si vous n’êtes pas à l’origine de cette modification, ouvrez le lien ci-dessous : il rétablit cette adresse et ferme toutes les sessions. Le lien ne peut être utilisé qu’une fois et reste valable ${d} jours.`,
    notYou: 'Changez ensuite votre mot de passe avec « Mot de passe oublié ? » sur la page de connexion.',
    fine: 'Si vous avez fait cette modification vous-même, vous n’avez rien à faire.',
  },
  it: {
    subject: 'L’e-mail di accesso del Suo account Cockpit è stata modificata',
    hello: (n) => (n ? `Buongiorno ${n},` : 'Buongiorno,'),
    body: (to) => `L’indirizzo e-mail con cui accede a Cockpit è stato cambiato in ${to}. D’ora in poi i messaggi vanno a questo indirizzo.`,
    action: 'Ripristina il mio indirizzo precedente',
    expiry: (d) => `Se non ha fatto Lei questa modifica, apra il link qui sotto: ripristina questo indirizzo e chiude tutte le sessioni. Il link può essere usato una sola volta ed è valido per ${d} giorni.`,
    notYou: 'Poi cambi la password con «Password dimenticata?» nella pagina di accesso.',
    fine: 'Se ha fatto Lei la modifica, non deve fare nulla.',
  },
}

/**
 * The notice to the previous sign-in address after a change (docs/decisions.md "Accounts: e-mail change
 * with password and undo, access tokens denied at logout, deactivation from its date"): the new address,
 * and `url`, the single-use link that restores the previous one within `days` days.
 */
export function emailChangedMail(lang: Lang, { name, newEmail, url, days }: { name: string; newEmail: string; url: string; days: number }): RenderedMail {
  const t = T[lang]
  const text = [t.hello(name), '', t.body(newEmail), '', t.expiry(days), '', url, '', t.notYou, t.fine, '', 'Cockpit'].join('\n')
  return { subject: t.subject, text, html: htmlPage(lang, [t.hello(name), t.body(newEmail), t.expiry(days)], { label: t.action, url }, [t.notYou, t.fine]) }
}
