import type { Lang } from '../../../lib/messages.ts'
import type { SessionHoldReason } from '../../ocpp/plausibility.ts'
import { htmlPage, type RenderedMail } from './layout.ts'

const T: Record<Lang, { subject: (site: string) => string; body: (id: number, station: string, start: string) => string; why: string; action: string; reasons: Record<SessionHoldReason, string> }> = {
  en: {
    subject: (site) => `Charging session held for review: ${site}`,
    body: (id, station, start) => `Charging session CS-${id} at ${station} (started ${start}) is held and will not be charged automatically.`,
    why: 'Reason:',
    action: 'Open the session in Cockpit to correct its energy, release it or void it.',
    reasons: {
      energyImplausible: 'the charger reported more energy than the station can deliver in that time.',
      powerImplausible: 'the charger reported a power above what the station can deliver.',
      registerBackwards: "the charger's meter register went down.",
      sessionCeiling: "its price is above the installation's ceiling for one session.",
      monthCeiling: "it would take the user's charges this month above the installation's monthly ceiling.",
    },
  },
  de: {
    subject: (site) => `Ladevorgang zur Prüfung angehalten: ${site}`,
    body: (id, station, start) => `Der Ladevorgang CS-${id} an ${station} (Beginn ${start}) ist angehalten und wird nicht automatisch belastet.`,
    why: 'Grund:',
    action: 'Öffnen Sie den Ladevorgang im Cockpit, um seine Energie zu korrigieren, ihn freizugeben oder zu stornieren.',
    reasons: {
      energyImplausible: 'Die Ladestation meldete mehr Energie, als sie in dieser Zeit liefern kann.',
      powerImplausible: 'Die Ladestation meldete eine höhere Leistung, als sie liefern kann.',
      registerBackwards: 'Der Zählerstand der Ladestation ist gesunken.',
      sessionCeiling: 'Sein Preis liegt über der Obergrenze der Anlage für einen Ladevorgang.',
      monthCeiling: 'Er würde die Belastungen des Benutzers in diesem Monat über die Monatsobergrenze der Anlage bringen.',
    },
  },
  fr: {
    subject: (site) => `Recharge retenue pour vérification : ${site}`,
    body: (id, station, start) => `La recharge CS-${id} à ${station} (début ${start}) est retenue et ne sera pas débitée automatiquement.`,
    why: 'Motif :',
    action: 'Ouvrez la recharge dans Cockpit pour corriger son énergie, la libérer ou l’annuler.',
    reasons: {
      energyImplausible: 'la borne a annoncé plus d’énergie qu’elle ne peut en fournir dans ce temps.',
      powerImplausible: 'la borne a annoncé une puissance supérieure à ce qu’elle peut fournir.',
      registerBackwards: 'le compteur de la borne a reculé.',
      sessionCeiling: 'son prix dépasse le plafond de l’installation pour une recharge.',
      monthCeiling: 'elle porterait les débits de l’utilisateur ce mois-ci au-delà du plafond mensuel de l’installation.',
    },
  },
  it: {
    subject: (site) => `Ricarica trattenuta per verifica: ${site}`,
    body: (id, station, start) => `La ricarica CS-${id} presso ${station} (inizio ${start}) è trattenuta e non verrà addebitata automaticamente.`,
    why: 'Motivo:',
    action: 'Apra la ricarica in Cockpit per correggerne l’energia, sbloccarla o annullarla.',
    reasons: {
      energyImplausible: 'la stazione ha segnalato più energia di quanta ne possa fornire in quel tempo.',
      powerImplausible: 'la stazione ha segnalato una potenza superiore a quella che può fornire.',
      registerBackwards: 'il contatore della stazione è diminuito.',
      sessionCeiling: 'il suo prezzo supera il limite dell’impianto per una ricarica.',
      monthCeiling: 'porterebbe gli addebiti dell’utente di questo mese oltre il limite mensile dell’impianto.',
    },
  },
}

/** The mail to an installation's admins when a session is held for review, in `lang`: which session, where, why, and what to do. */
export function sessionHeldMail(lang: Lang, { id, site, station, start, reason, url }: { id: number; site: string; station: string; start: string; reason: SessionHoldReason; url: string }): RenderedMail {
  const t = T[lang]
  const paragraphs = [t.body(id, station, start), `${t.why} ${t.reasons[reason]}`, t.action]
  return { subject: t.subject(site), text: [...paragraphs, '', url, '', 'Cockpit'].join('\n'), html: htmlPage(lang, paragraphs, { label: `CS-${id}`, url }) }
}
