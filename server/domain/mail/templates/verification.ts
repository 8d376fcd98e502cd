import type { Lang } from '../../../lib/messages.ts'
import { htmlPage, type RenderedMail } from './layout.ts'

const T: Record<Lang, { subject: string; hello: (name: string) => string; body: string; action: string; expiry: string; ignore: string }> = {
  en: {
    subject: 'Confirm your e-mail address for Cockpit',
    hello: (n) => (n ? `Hello ${n},` : 'Hello,'),
    body: 'Thank you for registering with Cockpit. Please confirm your e-mail address to activate your account.',
    action: 'Confirm e-mail address',
    expiry: 'The link can be used once and is valid for 48 hours.',
    ignore: 'If you did not register, you can ignore this e-mail.',
  },
  de: {
    subject: 'Bestätigen Sie Ihre E-Mail-Adresse für Cockpit',
    hello: (n) => (n ? `Grüezi ${n}` : 'Grüezi'),
    body: 'Vielen Dank für Ihre Registrierung bei Cockpit. Bitte bestätigen Sie Ihre E-Mail-Adresse, um Ihr Konto zu aktivieren.',
    action: 'E-Mail-Adresse bestätigen',
    expiry: 'Der Link kann einmal verwendet werden und ist 48 Stunden gültig.',
    ignore: 'Wenn Sie sich nicht registriert haben, können Sie diese E-Mail ignorieren.',
  },
  fr: {
    subject: 'Confirmez votre adresse e-mail pour Cockpit',
    hello: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    body: 'Merci de votre inscription à Cockpit. Veuillez confirmer votre adresse e-mail pour activer votre compte.',
    action: 'Confirmer l’adresse e-mail',
    expiry: 'Le lien ne peut être utilisé qu’une fois et reste valable 48 heures.',
    ignore: 'Si vous ne vous êtes pas inscrit, ignorez cet e-mail.',
  },
  it: {
    subject: 'Confermi il Suo indirizzo e-mail per Cockpit',
    hello: (n) => (n ? `Buongiorno ${n},` : 'Buongiorno,'),
    body: 'Grazie per la registrazione a Cockpit. Confermi il Suo indirizzo e-mail per attivare l’account.',
    action: 'Conferma l’indirizzo e-mail',
    expiry: 'Il link può essere usato una sola volta ed è valido per 48 ore.',
    ignore: 'Se non ha richiesto questa registrazione, ignori questa e-mail.',
  },
}

/** The address verification mail after self-registration in `lang`. */
export function verificationMail(lang: Lang, { name, url }: { name: string; url: string }): RenderedMail {
  const t = T[lang]
  const text = [t.hello(name), '', t.body, '', url, '', t.expiry, t.ignore, '', 'Cockpit'].join('\n')
  return { subject: t.subject, text, html: htmlPage(lang, [t.hello(name), t.body], { label: t.action, url }, [t.expiry, t.ignore]) }
}
