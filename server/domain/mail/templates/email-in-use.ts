import type { Lang } from '../../../lib/messages.ts'
import { htmlPage, type RenderedMail } from './layout.ts'

type Texts = { subject: string; hello: (name: string) => string; body: string; fine: string }
const T: Record<Lang, Texts> = {
  en: {
    subject: 'Someone asked to use your e-mail address in Cockpit',
    hello: (n) => (n ? `Hello ${n},` : 'Hello,'),
    body: 'Someone asked to use this address as the sign-in e-mail of another Cockpit account. Your address already belongs to your account, so nothing was changed.',
    fine: 'You do not need to do anything: you can ignore this e-mail.',
  },
  de: {
    subject: 'Jemand wollte Ihre E-Mail-Adresse in Cockpit verwenden',
    hello: (n) => (n ? `Grüezi ${n}` : 'Grüezi'),
    body: 'Jemand wollte diese Adresse als Anmelde-E-Mail eines anderen Cockpit-Kontos verwenden. Ihre Adresse gehört bereits zu Ihrem Konto, deshalb wurde nichts geändert.',
    fine: 'Sie müssen nichts tun: Sie können diese E-Mail ignorieren.',
  },
  fr: {
    subject: 'Quelqu’un a voulu utiliser votre adresse e-mail dans Cockpit',
    hello: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    body: 'Quelqu’un a demandé à utiliser cette adresse comme e-mail de connexion d’un autre compte Cockpit. Votre adresse appartient déjà à votre compte : rien n’a été modifié.',
    fine: 'Vous n’avez rien à faire : vous pouvez ignorer cet e-mail.',
  },
  it: {
    subject: 'Qualcuno ha chiesto di usare il Suo indirizzo e-mail in Cockpit',
    hello: (n) => (n ? `Buongiorno ${n},` : 'Buongiorno,'),
    body: 'Qualcuno ha chiesto di usare questo indirizzo come e-mail di accesso di un altro account Cockpit. Il Suo indirizzo appartiene già al Suo account, quindi non è stato cambiato nulla.',
    fine: 'Non deve fare nulla: può ignorare questa e-mail.',
  },
}

/**
 * The short notice to an address that already has an account when someone asks to make it another account's
 * sign-in address (docs/decisions.md "Accounts: an e-mail change is confirmed from the new address"): nothing
 * changed, nothing to do. It names no account and no installation.
 */
export function emailInUseMail(lang: Lang, { name }: { name: string }): RenderedMail {
  const t = T[lang]
  const text = [t.hello(name), '', t.body, '', t.fine, '', 'Cockpit'].join('\n')
  return { subject: t.subject, text, html: htmlPage(lang, [t.hello(name), t.body], undefined, [t.fine]) }
}
