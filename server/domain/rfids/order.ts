import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { MailService } from '../mail/service.ts'
import type { PaymentService } from '../payments/service.ts'
import { LANGS, type Lang } from '../../lib/messages.ts'
import { RFID_CARD_PRICE_RAPPEN, type RfidOrder } from '../../../shared/schemas/rfid.ts'
import { defaultRegion, formatMoney, intlLocale, regionOfTag } from '../../../shared/rules/formats.ts'

const TEXTS = {
  en: {
    subject: 'New RFID card ordered: {{facility}}',
    intro: '{{name}} ordered {{quantity}} new RFID card(s) for {{facility}}.',
    terms: 'Price: {{price}} ({{each}} per card), charged to the stored card. Delivery in 3–4 working days.',
    delivery: 'Delivery address',
    comment: 'Comment',
  },
  de: {
    subject: 'Neue RFID-Karte bestellt: {{facility}}',
    intro: '{{name}} hat {{quantity}} neue RFID-Karte(n) für {{facility}} bestellt.',
    terms: 'Preis: {{price}} ({{each}} pro Karte), belastet auf die hinterlegte Karte. Lieferung in 3–4 Arbeitstagen.',
    delivery: 'Lieferadresse',
    comment: 'Bemerkung',
  },
  fr: {
    subject: 'Nouvelle carte RFID commandée : {{facility}}',
    intro: '{{name}} a commandé {{quantity}} nouvelle(s) carte(s) RFID pour {{facility}}.',
    terms: 'Prix : {{price}} ({{each}} par carte), débité de la carte enregistrée. Livraison en 3 à 4 jours ouvrables.',
    delivery: 'Adresse de livraison',
    comment: 'Remarque',
  },
  it: {
    subject: 'Nuova carta RFID ordinata: {{facility}}',
    intro: '{{name}} ha ordinato {{quantity}} nuova/e carta/e RFID per {{facility}}.',
    terms: 'Prezzo: {{price}} ({{each}} per carta), addebitato sulla carta registrata. Consegna in 3–4 giorni lavorativi.',
    delivery: 'Indirizzo di consegna',
    comment: 'Osservazione',
  },
} satisfies Record<Lang, Record<string, string>>

const fill = (s: string, p: Record<string, string | number>) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(p[k] ?? ''))
const langOf = (tag: string): Lang => ((LANGS as readonly string[]).includes(tag.slice(0, 2)) ? (tag.slice(0, 2) as Lang) : 'en')

/**
 * Order new RFID cards (SPEC §2 "order new", §9: CHF 25 each, 3–4 working days, charged to the stored
 * card): any user with a role in the installation. Through the mail outbox: a confirmation to the
 * orderer and the order to the installation's admins (superusers when it has none), each in the
 * recipient's language, amounts in their region's format (Settings; CH when none). The amount (plus the card fee) is charged to the orderer's primary payment method
 * first: 400 without one, 402 when declined (domain/payments).
 */
export function createRfidOrderService({ db, installations, mail, payments }: { db: Db; installations: InstallationService; mail: MailService; payments: PaymentService }) {
  return {
    async order(actor: Actor, installationId: number, order: RfidOrder): Promise<{ quantity: number; price: number; mails: number }> {
      await installations.requireRole(actor, installationId)
      const [inst, me, admins] = await Promise.all([
        db.selectFrom('installations').select('name').where('id', '=', installationId).executeTakeFirstOrThrow(),
        db.selectFrom('users').select(['email', 'first_name', 'last_name', 'ietf_lang_tag']).where('id', '=', actor.id).executeTakeFirstOrThrow(),
        db.selectFrom('installation_users as iu').innerJoin('users as u', 'u.id', 'iu.user_id')
          .select(['u.email', 'u.ietf_lang_tag']).where('iu.installation_id', '=', installationId).where('iu.role', '=', 'installation_admin').where('u.is_active', '=', true).execute(),
      ])
      const staff = admins.length
        ? admins
        : await db.selectFrom('users').select(['email', 'ietf_lang_tag']).where('is_superuser', '=', true).where('is_active', '=', true).where('is_service', '=', false).execute()
      // SPEC §9: charged to the stored (primary) card before the order goes out; refused without one.
      await payments.chargeOrder(actor, RFID_CARD_PRICE_RAPPEN * order.quantity, `RFID card order (${order.quantity})`)
      const price = (RFID_CARD_PRICE_RAPPEN * order.quantity) / 100
      const params = { facility: inst.name, name: `${me.first_name} ${me.last_name}`.trim() || me.email, quantity: order.quantity }
      const address = [`${order.first_name} ${order.last_name}`, order.company, order.address, `${order.country}-${order.zip_code} ${order.city}`].filter(Boolean).join('\n')
      const recipients = [{ email: me.email, ietf_lang_tag: me.ietf_lang_tag }, ...staff.filter((s) => s.email !== me.email)]
      for (const r of recipients) {
        const lang = langOf(r.ietf_lang_tag)
        const T = TEXTS[lang]
        // Amounts by the one formatting source in the recipient's language and region of Settings.
        const locale = intlLocale(lang, regionOfTag(r.ietf_lang_tag) ?? defaultRegion(lang))
        const terms = fill(T.terms, { price: formatMoney(price, locale), each: formatMoney(RFID_CARD_PRICE_RAPPEN / 100, locale) })
        const text = [fill(T.intro, params), terms, '', `${T.delivery}:`, address, order.comment ? `\n${T.comment}: ${order.comment}` : ''].join('\n').trim()
        await mail.enqueue({ kind: 'rfid-order', to: r.email, subject: fill(T.subject, params), text })
      }
      return { quantity: order.quantity, price, mails: recipients.length }
    },
  }
}
