import type { Lang } from '../../../lib/messages.ts'
import { htmlPage, type RenderedMail } from './layout.ts'

const T: Record<Lang, { subject: string; hello: (name: string) => string; body: (site: string) => string; action: string; expiry: string; login: string }> = {
  en: {
    subject: 'Welcome to Cockpit',
    hello: (n) => (n ? `Hello ${n},` : 'Hello,'),
    body: (site) => `An account has been created for you in the Cockpit of ${site}. There you can follow your charging sessions, RFID cards and the facility's energy.`,
    action: 'Set your password',
    expiry: 'The link can be used once and is valid for 7 days. Afterwards use "Forgot password?" on the login page.',
    login: 'Your login is your e-mail address:',
  },
  de: {
    subject: 'Willkommen bei Cockpit',
    hello: (n) => (n ? `Grüezi ${n}` : 'Grüezi'),
    body: (site) => `Für Sie wurde ein Konto im Cockpit von ${site} eröffnet. Dort sehen Sie Ihre Ladevorgänge, RFID-Karten und die Energie der Anlage.`,
    action: 'Passwort festlegen',
    expiry: 'Der Link kann einmal verwendet werden und ist 7 Tage gültig. Danach nutzen Sie «Passwort vergessen?» auf der Anmeldeseite.',
    login: 'Ihr Login ist Ihre E-Mail-Adresse:',
  },
  fr: {
    subject: 'Bienvenue sur Cockpit',
    hello: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    body: (site) => `Un compte a été créé pour vous dans le Cockpit de ${site}. Vous y suivez vos recharges, vos cartes RFID et l’énergie de l’installation.`,
    action: 'Définir votre mot de passe',
    expiry: 'Le lien ne peut être utilisé qu’une fois et reste valable 7 jours. Ensuite, utilisez « Mot de passe oublié ? » sur la page de connexion.',
    login: 'Votre identifiant est votre adresse e-mail :',
  },
  it: {
    subject: 'Benvenuto in Cockpit',
    hello: (n) => (n ? `Buongiorno ${n},` : 'Buongiorno,'),
    body: (site) => `È stato creato un account per Lei nel Cockpit di ${site}. Lì può seguire le Sue ricariche, le carte RFID e l’energia della struttura.`,
    action: 'Imposta la password',
    expiry: 'Il link può essere usato una sola volta ed è valido per 7 giorni. In seguito usi «Password dimenticata?» nella pagina di accesso.',
    login: 'Il Suo login è il Suo indirizzo e-mail:',
  },
}

/** The welcome mail in `lang`: the installation's name and a set-password link. */
export function welcomeMail(lang: Lang, { name, email, site, url }: { name: string; email: string; site: string; url: string }): RenderedMail {
  const t = T[lang]
  const text = [t.hello(name), '', t.body(site), '', `${t.login} ${email}`, '', `${t.action}: ${url}`, '', t.expiry, '', 'Cockpit'].join('\n')
  return { subject: t.subject, text, html: htmlPage(lang, [t.hello(name), t.body(site), `${t.login} ${email}`], { label: t.action, url }, [t.expiry]) }
}
