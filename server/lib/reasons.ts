import type { Lang } from './messages.ts'

/**
 * Why a station charges as it does, as a code (docs/decisions.md "Load management: model, controller and
 * reasons"): the load allocator's reasons (server/control/allocate.ts ReasonCode; the controller checks at
 * compile time that every one of them is here) and the station's own state (SPEC §4 statuses and alerts)
 * where that, not the allocation, decides.
 */
export const REASON_CODES = [
  // The allocator's.
  'ok', 'no_car', 'grid_limit_shared', 'circuit_limit', 'waiting_for_solar', 'solar_surplus', 'waiting_for_turn',
  'higher_priority', 'low_tariff_later', 'plan_priority', 'settling', 'fallback_static',
  // The controller's, from the allocator's grid_limit_shared while peak shaving's peak is the tighter limit.
  'peak_shaving',
  // The station's state.
  'charging', 'no_solar_power', 'no_optimized_power', 'waiting_for_badge', 'car_paused', 'charger_offline', 'charger_fault', 'station_locked', 'load_management_off',
] as const
export type DisplayReason = (typeof REASON_CODES)[number]

/**
 * The sentence of each reason in en, de, fr and it. Placeholders: `{{amps}}` the limit in A per phase,
 * `{{cars}}` how many cars charge behind the limit, `{{circuit}}` the circuit's name, `{{kw}}` kW of solar power
 * missing (the peak's kW for `peak_shaving`), `{{time}}` the local time the reason ends ("20:00"). A typed table, so a missing language
 * is a compile error.
 */
const TEXTS: Record<DisplayReason, Record<Lang, string>> = {
  ok: {
    en: 'Charging at full power.',
    de: 'Lädt mit voller Leistung.',
    fr: 'Recharge à pleine puissance.',
    it: 'In ricarica alla massima potenza.',
  },
  no_car: {
    en: 'No car is waiting for energy.',
    de: 'Kein Auto wartet auf Energie.',
    fr: "Aucune voiture n'attend d'énergie.",
    it: 'Nessuna auto in attesa di energia.',
  },
  grid_limit_shared: {
    en: 'The building connection is at its limit: {{amps}} A for this car ({{cars}} charging).',
    de: 'Der Hausanschluss ist ausgelastet: {{amps}} A für dieses Auto ({{cars}} laden).',
    fr: 'Le raccordement du bâtiment est à sa limite : {{amps}} A pour cette voiture ({{cars}} en recharge).',
    it: "L'allacciamento dell'edificio è al limite: {{amps}} A per questa auto ({{cars}} in ricarica).",
  },
  circuit_limit: {
    en: 'The circuit {{circuit}} is at its limit: {{amps}} A for this car ({{cars}} charging).',
    de: 'Der Stromkreis {{circuit}} ist ausgelastet: {{amps}} A für dieses Auto ({{cars}} laden).',
    fr: 'Le circuit {{circuit}} est à sa limite : {{amps}} A pour cette voiture ({{cars}} en recharge).',
    it: 'Il circuito {{circuit}} è al limite: {{amps}} A per questa auto ({{cars}} in ricarica).',
  },
  waiting_for_solar: {
    en: 'Waiting for {{kw}} kW more solar power.',
    de: 'Wartet auf {{kw}} kW mehr Solarstrom.',
    fr: "En attente de {{kw}} kW d'énergie solaire en plus.",
    it: 'In attesa di altri {{kw}} kW di energia solare.',
  },
  solar_surplus: {
    en: 'Charging with the solar surplus: {{amps}} A.',
    de: 'Lädt mit dem Solarüberschuss: {{amps}} A.',
    fr: 'Recharge avec le surplus solaire : {{amps}} A.',
    it: 'In ricarica con il surplus solare: {{amps}} A.',
  },
  waiting_for_turn: {
    en: 'The connection cannot give every car the minimum current, so cars take turns: this one charges from {{time}}.',
    de: 'Der Anschluss reicht nicht für den Mindeststrom aller Autos, sie laden abwechselnd: dieses ab {{time}}.',
    fr: 'Le raccordement ne suffit pas au courant minimum de toutes les voitures, elles se relaient : celle-ci à partir de {{time}}.',
    it: "L'allacciamento non basta per la corrente minima di tutte le auto, si alternano: questa dalle {{time}}.",
  },
  higher_priority: {
    en: 'Cars in instant mode charge first; this one waits for capacity.',
    de: 'Autos im Sofortmodus laden zuerst; dieses wartet auf freie Leistung.',
    fr: "Les voitures en mode immédiat passent d'abord ; celle-ci attend de la capacité.",
    it: 'Le auto in modalità immediata caricano per prime; questa attende capacità.',
  },
  low_tariff_later: {
    en: 'Waiting for the low tariff from {{time}}.',
    de: 'Wartet auf den Niedertarif ab {{time}}.',
    fr: 'En attente du tarif bas à partir de {{time}}.',
    it: 'In attesa della tariffa bassa dalle {{time}}.',
  },
  plan_priority: {
    en: 'Charging first to reach its charge plan in time: {{amps}} A.',
    de: 'Lädt bevorzugt, um den Ladeplan rechtzeitig zu erfüllen: {{amps}} A.',
    fr: 'Recharge en priorité pour tenir son plan de recharge : {{amps}} A.',
    it: 'Carica con priorità per rispettare il piano di ricarica: {{amps}} A.',
  },
  peak_shaving: {
    en: 'The building stays under its power peak of {{kw}} kW: {{amps}} A for this car ({{cars}} charging).',
    de: 'Das Gebäude bleibt unter seiner Leistungsspitze von {{kw}} kW: {{amps}} A für dieses Auto ({{cars}} laden).',
    fr: 'Le bâtiment reste sous sa pointe de puissance de {{kw}} kW : {{amps}} A pour cette voiture ({{cars}} en recharge).',
    it: "L'edificio resta sotto il suo picco di potenza di {{kw}} kW: {{amps}} A per questa auto ({{cars}} in ricarica).",
  },
  settling: {
    en: 'The limit of {{amps}} A is held a moment so it does not flap; it changes from {{time}}.',
    de: 'Die Begrenzung von {{amps}} A wird kurz gehalten, damit sie nicht schwankt; sie ändert sich ab {{time}}.',
    fr: 'La limite de {{amps}} A est maintenue un instant pour ne pas osciller ; elle change à partir de {{time}}.',
    it: 'Il limite di {{amps}} A è mantenuto per un momento per evitare oscillazioni; cambia dalle {{time}}.',
  },
  fallback_static: {
    en: 'No reading from the grid meter: charging at a fixed safe share of {{amps}} A.',
    de: 'Kein Messwert vom Netzzähler: lädt mit einem festen, sicheren Anteil von {{amps}} A.',
    fr: 'Aucune mesure du compteur réseau : recharge à une part fixe et sûre de {{amps}} A.',
    it: 'Nessuna lettura dal contatore di rete: ricarica con una quota fissa e sicura di {{amps}} A.',
  },
  charging: {
    en: 'Charging.',
    de: 'Lädt.',
    fr: 'En recharge.',
    it: 'In ricarica.',
  },
  no_solar_power: {
    en: 'Waiting for solar power.',
    de: 'Wartet auf Solarstrom.',
    fr: "En attente d'énergie solaire.",
    it: 'In attesa di energia solare.',
  },
  no_optimized_power: {
    en: 'Waiting for the low tariff or solar power.',
    de: 'Wartet auf den Niedertarif oder Solarstrom.',
    fr: "En attente du tarif bas ou d'énergie solaire.",
    it: 'In attesa della tariffa bassa o di energia solare.',
  },
  waiting_for_badge: {
    en: 'Waiting for an RFID badge.',
    de: 'Wartet auf einen RFID-Badge.',
    fr: 'En attente d’un badge RFID.',
    it: 'In attesa di un badge RFID.',
  },
  car_paused: {
    en: 'The car paused charging or is full.',
    de: 'Das Auto hat das Laden pausiert oder ist voll.',
    fr: 'La voiture a mis la recharge en pause ou est pleine.',
    it: "L'auto ha sospeso la ricarica o è carica.",
  },
  charger_offline: {
    en: 'The charger is offline.',
    de: 'Die Ladestation ist offline.',
    fr: 'La borne est hors ligne.',
    it: 'La stazione di ricarica è offline.',
  },
  charger_fault: {
    en: 'The charger reports a fault.',
    de: 'Die Ladestation meldet einen Fehler.',
    fr: 'La borne signale un défaut.',
    it: 'La stazione di ricarica segnala un guasto.',
  },
  station_locked: {
    en: 'The charging station is disabled.',
    de: 'Die Ladestation ist gesperrt.',
    fr: 'La borne de recharge est désactivée.',
    it: 'La stazione di ricarica è disattivata.',
  },
  load_management_off: {
    en: 'Load management is switched off: the station is not limited.',
    de: 'Das Lastmanagement ist ausgeschaltet: die Ladestation wird nicht begrenzt.',
    fr: "La gestion de charge est désactivée : la borne n'est pas limitée.",
    it: 'La gestione del carico è disattivata: la stazione non è limitata.',
  },
}

/** Whether `code` is a known reason. */
export function isReason(code: string): code is DisplayReason {
  return (REASON_CODES as readonly string[]).includes(code)
}

/**
 * The sentence for reason `code` in `lang`, `{{name}}` placeholders filled from `params` (a missing one
 * is left empty). An unknown code (a newer allocator's, not translated yet) reads as `charging`.
 */
export function reasonText(code: string, lang: Lang, params: Record<string, string | number> = {}): string {
  const t = isReason(code) ? TEXTS[code][lang] : TEXTS.charging[lang]
  return t.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(params[k] ?? ''))
}
