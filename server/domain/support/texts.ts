import type { Lang } from '../../lib/messages.ts'
import type { SupportTopic } from '../../../shared/schemas/support.ts'

/** Topic names in mails (the client has its own in client/i18n/locales/<lang>/support.json). */
export const TOPIC_NAMES: Record<Lang, Record<SupportTopic, string>> = {
  en: { charging: 'Charging', billing: 'Billing and payments', rfid: 'RFID cards', account: 'My account', technical: 'Technical problem', other: 'Other' },
  de: { charging: 'Laden', billing: 'Abrechnung und Zahlungen', rfid: 'RFID-Karten', account: 'Mein Konto', technical: 'Technisches Problem', other: 'Anderes' },
  fr: { charging: 'Recharge', billing: 'Facturation et paiements', rfid: 'Cartes RFID', account: 'Mon compte', technical: 'Problème technique', other: 'Autre' },
  it: { charging: 'Ricarica', billing: 'Fatturazione e pagamenti', rfid: 'Carte RFID', account: 'Il mio account', technical: 'Problema tecnico', other: 'Altro' },
}

/** Texts of the mails about a ticket, in the recipient's language; {{n}} is the ticket number. */
export const MAIL_TEXTS = {
  en: {
    subject: '[Support #{{n}}] {{topic}}',
    opened: 'We have received your message and will answer soon. You can answer by replying to this e-mail.',
    newTicket: '{{name}} ({{email}}) opened a support ticket. Answer in the support inbox or by replying to this e-mail.',
    answered: 'Support answered your ticket:',
    userReplied: '{{name}} replied to the ticket:',
    closed: 'Your ticket has been closed. Replies to it are no longer received; write a new message in the portal if you need more help.',
    reopened: 'Your ticket has been reopened. You can answer by replying to this e-mail.',
    attachmentsRefused: 'Your reply was added to the ticket, but attachments are not accepted and were removed: {{names}}. Please describe the content in the text instead.',
    closedRefused: 'This ticket is closed, so your reply was not added. Please write a new message in the portal.',
    open: 'Open the ticket',
  },
  de: {
    subject: '[Support #{{n}}] {{topic}}',
    opened: 'Wir haben Ihre Nachricht erhalten und antworten bald. Sie können auf diese E-Mail antworten.',
    newTicket: '{{name}} ({{email}}) hat ein Support-Ticket eröffnet. Antworten Sie im Support-Posteingang oder auf diese E-Mail.',
    answered: 'Der Support hat auf Ihr Ticket geantwortet:',
    userReplied: '{{name}} hat auf das Ticket geantwortet:',
    closed: 'Ihr Ticket wurde geschlossen. Antworten darauf werden nicht mehr empfangen; schreiben Sie im Portal eine neue Nachricht, wenn Sie weitere Hilfe brauchen.',
    reopened: 'Ihr Ticket wurde wieder eröffnet. Sie können auf diese E-Mail antworten.',
    attachmentsRefused: 'Ihre Antwort wurde dem Ticket hinzugefügt, aber Anhänge werden nicht angenommen und wurden entfernt: {{names}}. Bitte beschreiben Sie den Inhalt stattdessen im Text.',
    closedRefused: 'Dieses Ticket ist geschlossen, Ihre Antwort wurde daher nicht hinzugefügt. Bitte schreiben Sie im Portal eine neue Nachricht.',
    open: 'Ticket öffnen',
  },
  fr: {
    subject: '[Support #{{n}}] {{topic}}',
    opened: 'Nous avons reçu votre message et répondrons bientôt. Vous pouvez répondre à cet e-mail.',
    newTicket: '{{name}} ({{email}}) a ouvert un ticket de support. Répondez dans la boîte du support ou en répondant à cet e-mail.',
    answered: 'Le support a répondu à votre ticket :',
    userReplied: '{{name}} a répondu au ticket :',
    closed: "Votre ticket a été fermé. Les réponses n'y sont plus reçues ; écrivez un nouveau message dans le portail si vous avez encore besoin d'aide.",
    reopened: 'Votre ticket a été rouvert. Vous pouvez répondre à cet e-mail.',
    attachmentsRefused: "Votre réponse a été ajoutée au ticket, mais les pièces jointes ne sont pas acceptées et ont été retirées : {{names}}. Décrivez plutôt leur contenu dans le texte.",
    closedRefused: "Ce ticket est fermé, votre réponse n'a donc pas été ajoutée. Écrivez un nouveau message dans le portail.",
    open: 'Ouvrir le ticket',
  },
  it: {
    subject: '[Support #{{n}}] {{topic}}',
    opened: 'Abbiamo ricevuto il Suo messaggio e risponderemo presto. Può rispondere a questa e-mail.',
    newTicket: '{{name}} ({{email}}) ha aperto un ticket di supporto. Risponda nella casella del supporto o rispondendo a questa e-mail.',
    answered: 'Il supporto ha risposto al Suo ticket:',
    userReplied: '{{name}} ha risposto al ticket:',
    closed: 'Il Suo ticket è stato chiuso. Le risposte non vengono più ricevute; scriva un nuovo messaggio nel portale se Le serve altro aiuto.',
    reopened: 'Il Suo ticket è stato riaperto. Può rispondere a questa e-mail.',
    attachmentsRefused: 'La Sua risposta è stata aggiunta al ticket, ma gli allegati non sono accettati e sono stati rimossi: {{names}}. Descriva invece il contenuto nel testo.',
    closedRefused: 'Questo ticket è chiuso, quindi la Sua risposta non è stata aggiunta. Scriva un nuovo messaggio nel portale.',
    open: 'Apri il ticket',
  },
} satisfies Record<Lang, Record<string, string>>

export const fill = (s: string, p: Record<string, string | number>) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(p[k] ?? ''))
