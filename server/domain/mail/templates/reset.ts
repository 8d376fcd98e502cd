import type { Lang } from '../../../lib/messages.ts'
import { htmlPage, type RenderedMail } from './layout.ts'

const T: Record<Lang, { subject: string; hello: (name: string) => string; body: string; action: string; expiry: string; ignore: string }> = {
  en: {
    subject: 'Reset your Cockpit password',
    hello: (n) => (n ? `Hello ${n},` : 'Hello,'),
    body: 'We received a request to reset the password of your Cockpit account. Open the link below to create a new password.',
    action: 'Create a new password',
    expiry: 'The link can be used once and is valid for 60 minutes.',
    ignore: 'If you did not ask for this, you can ignore this e-mail: your password stays as it is.',
  },
  de: {
    subject: 'Ihr Cockpit-Passwort zurücksetzen',
    hello: (n) => (n ? `Grüezi ${n}` : 'Grüezi'),
    body: 'Wir haben eine Anfrage erhalten, das Passwort Ihres Cockpit-Kontos zurückzusetzen. Öffnen Sie den Link unten, um ein neues Passwort zu erstellen.',
    action: 'Neues Passwort erstellen',
    expiry: 'Der Link kann einmal verwendet werden und ist 60 Minuten gültig.',
    ignore: 'Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt unverändert.',
  },
  fr: {
    subject: 'Réinitialiser votre mot de passe Cockpit',
    hello: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    body: 'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte Cockpit. Ouvrez le lien ci-dessous pour créer un nouveau mot de passe.',
    action: 'Créer un nouveau mot de passe',
    expiry: 'Le lien ne peut être utilisé qu’une fois et reste valable 60 minutes.',
    ignore: 'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.',
  },
  it: {
    subject: 'Reimpostazione della password di Cockpit',
    hello: (n) => (n ? `Buongiorno ${n},` : 'Buongiorno,'),
    body: 'Abbiamo ricevuto una richiesta di reimpostare la password del Suo account Cockpit. Apra il link qui sotto per creare una nuova password.',
    action: 'Crea una nuova password',
    expiry: 'Il link può essere usato una sola volta ed è valido per 60 minuti.',
    ignore: 'Se non ha fatto questa richiesta, ignori questa e-mail: la password resta invariata.',
  },
}

/** The password reset mail in `lang`; `url` is the create-new-password link. */
export function resetMail(lang: Lang, { name, url }: { name: string; url: string }): RenderedMail {
  const t = T[lang]
  const text = [t.hello(name), '', t.body, '', url, '', t.expiry, t.ignore, '', 'Cockpit'].join('\n')
  return { subject: t.subject, text, html: htmlPage(lang, [t.hello(name), t.body], { label: t.action, url }, [t.expiry, t.ignore]) }
}
