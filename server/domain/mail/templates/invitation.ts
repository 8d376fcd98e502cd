import type { Lang } from '../../../lib/messages.ts'
import { htmlPage, type RenderedMail } from './layout.ts'

const T: Record<Lang, { subject: (site: string) => string; hello: (name: string) => string; body: (site: string) => string; action: string; expiry: string; ignore: string }> = {
  en: {
    subject: (site) => `Invitation to the Cockpit of ${site}`,
    hello: (n) => (n ? `Hello ${n},` : 'Hello,'),
    body: (site) => `An administrator of ${site} invites you to its Cockpit. Accept to see the installation with your existing account: your login and password stay as they are.`,
    action: 'Accept the invitation',
    expiry: 'The link can be used once and is valid for 7 days.',
    ignore: 'If you do not want to join, ignore this mail: nothing changes for your account.',
  },
  de: {
    subject: (site) => `Einladung ins Cockpit von ${site}`,
    hello: (n) => (n ? `Grüezi ${n}` : 'Grüezi'),
    body: (site) => `Eine Administratorin oder ein Administrator von ${site} lädt Sie in das Cockpit der Anlage ein. Nehmen Sie an, um die Anlage mit Ihrem bestehenden Konto zu sehen: Login und Passwort bleiben, wie sie sind.`,
    action: 'Einladung annehmen',
    expiry: 'Der Link kann einmal verwendet werden und ist 7 Tage gültig.',
    ignore: 'Wenn Sie nicht beitreten möchten, ignorieren Sie diese E-Mail: An Ihrem Konto ändert sich nichts.',
  },
  fr: {
    subject: (site) => `Invitation au Cockpit de ${site}`,
    hello: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    body: (site) => `Un administrateur de ${site} vous invite dans son Cockpit. Acceptez pour voir l’installation avec votre compte existant : votre identifiant et votre mot de passe restent les mêmes.`,
    action: 'Accepter l’invitation',
    expiry: 'Le lien ne peut être utilisé qu’une fois et reste valable 7 jours.',
    ignore: 'Si vous ne souhaitez pas rejoindre l’installation, ignorez cet e-mail : rien ne change pour votre compte.',
  },
  it: {
    subject: (site) => `Invito nel Cockpit di ${site}`,
    hello: (n) => (n ? `Buongiorno ${n},` : 'Buongiorno,'),
    body: (site) => `Un amministratore di ${site} La invita nel suo Cockpit. Accetti per vedere la struttura con il Suo account esistente: login e password restano invariati.`,
    action: 'Accetta l’invito',
    expiry: 'Il link può essere usato una sola volta ed è valido per 7 giorni.',
    ignore: 'Se non desidera aderire, ignori questa e-mail: per il Suo account non cambia nulla.',
  },
}

/** The invitation of an existing account to an installation, in `lang`: the installation's name and an accept link. */
export function invitationMail(lang: Lang, { name, site, url }: { name: string; site: string; url: string }): RenderedMail {
  const t = T[lang]
  const text = [t.hello(name), '', t.body(site), '', `${t.action}: ${url}`, '', t.expiry, t.ignore, '', 'Cockpit'].join('\n')
  return { subject: t.subject(site), text, html: htmlPage(lang, [t.hello(name), t.body(site)], { label: t.action, url }, [t.expiry, t.ignore]) }
}
