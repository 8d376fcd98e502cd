import type { Lang } from '../../lib/messages.ts'

/** Texts of report files and mails in the recipient's language (en, de, fr, it). */
export const REPORT_TEXT = {
  type: {
    zev: { en: 'ZEV report', de: 'ZEV-Bericht', fr: 'Rapport RCP', it: 'Rapporto RCP' },
    electrical: { en: 'Electricity report', de: 'Strombericht', fr: "Rapport d'électricité", it: 'Rapporto elettricità' },
    water: { en: 'Water report', de: 'Wasserbericht', fr: "Rapport d'eau", it: 'Rapporto acqua' },
    heat: { en: 'Heat report', de: 'Wärmebericht', fr: 'Rapport de chaleur', it: 'Rapporto calore' },
  },
  col: {
    series: { en: 'Series', de: 'Reihe', fr: 'Série', it: 'Serie' },
    unit: { en: 'Unit', de: 'Einheit', fr: 'Unité', it: 'Unità' },
    value: { en: 'Value', de: 'Wert', fr: 'Valeur', it: 'Valore' },
    previous: { en: 'Previous period', de: 'Vorperiode', fr: 'Période précédente', it: 'Periodo precedente' },
    delta: { en: 'Change', de: 'Veränderung', fr: 'Variation', it: 'Variazione' },
    consumer: { en: 'Unit', de: 'Einheit', fr: 'Unité', it: 'Unità' },
    consumption: { en: 'Consumption kWh', de: 'Verbrauch kWh', fr: 'Consommation kWh', it: 'Consumo kWh' },
    pv: { en: 'Solar kWh', de: 'Solar kWh', fr: 'Solaire kWh', it: 'Solare kWh' },
    battery: { en: 'Battery kWh', de: 'Batterie kWh', fr: 'Batterie kWh', it: 'Batteria kWh' },
    grid: { en: 'Grid kWh', de: 'Netz kWh', fr: 'Réseau kWh', it: 'Rete kWh' },
    cost: { en: 'Cost CHF', de: 'Kosten CHF', fr: 'Coûts CHF', it: 'Costi CHF' },
    gridCost: { en: 'Grid CHF', de: 'Netz CHF', fr: 'Réseau CHF', it: 'Rete CHF' },
    internalCost: { en: 'Solar & battery CHF', de: 'Solar & Batterie CHF', fr: 'Solaire & batterie CHF', it: 'Solare & batteria CHF' },
  },
  /** ZEV report: total row, notes on the model, the cap, missing data and meters that measured more than the main meters supplied. */
  zev: {
    total: { en: 'Total', de: 'Total', fr: 'Total', it: 'Totale' },
    sessions: { en: '{{name}} (billed per charging session)', de: '{{name}} (pro Ladevorgang verrechnet)', fr: '{{name}} (facturée par recharge)', it: '{{name}} (fatturata per ricarica)' },
    flat_rate: {
      en: 'Model: flat rate, {{percent}} % of the external standard electricity product (EnV Art. 16 para. 1 let. b)',
      de: 'Modell: Pauschale, {{percent}} % des externen Standardstromprodukts (EnV Art. 16 Abs. 1 Bst. b)',
      fr: 'Modèle : forfait, {{percent}} % du produit électrique standard externe (OEne art. 16 al. 1 let. b)',
      it: 'Modello: forfait, {{percent}} % del prodotto elettrico standard esterno (OEn art. 16 cpv. 1 lett. b)',
    },
    actual_costs: {
      en: 'Model: actual costs less feed-in revenue of CHF {{feedIn}} (EnV Art. 16 para. 2)',
      de: 'Modell: effektive Kosten abzüglich Einspeiseerlös von CHF {{feedIn}} (EnV Art. 16 Abs. 2)',
      fr: 'Modèle : coûts effectifs moins le produit de l’injection de CHF {{feedIn}} (OEne art. 16 al. 2)',
      it: 'Modello: costi effettivi meno il ricavo dell’immissione di CHF {{feedIn}} (OEn art. 16 cpv. 2)',
    },
    cap: {
      en: 'Cap: {{percent}} % of the external standard product, on average CHF {{cap}}/kWh (standard product CHF {{standard}}/kWh)',
      de: 'Obergrenze: {{percent}} % des externen Standardstromprodukts, im Mittel CHF {{cap}}/kWh (Standardprodukt CHF {{standard}}/kWh)',
      fr: 'Plafond : {{percent}} % du produit standard externe, en moyenne CHF {{cap}}/kWh (produit standard CHF {{standard}}/kWh)',
      it: 'Tetto: {{percent}} % del prodotto standard esterno, in media CHF {{cap}}/kWh (prodotto standard CHF {{standard}}/kWh)',
    },
    missing: {
      en: 'Warning: {{missing}} of {{expected}} 15-minute intervals of the period have missing meter data',
      de: 'Warnung: Bei {{missing}} von {{expected}} Viertelstunden der Periode fehlen Messdaten',
      fr: 'Attention : {{missing}} des {{expected}} quarts d’heure de la période n’ont pas toutes leurs mesures',
      it: 'Attenzione: in {{missing}} dei {{expected}} quarti d’ora del periodo mancano dati di misura',
    },
    unbalanced: {
      en: "Warning: 15-minute intervals in which the participants' meters measured more than the main meters supplied: {{count}}, together {{kwh}} kWh (not billed)",
      de: "Warnung: Viertelstunden, in denen die Zähler der Teilnehmenden mehr gemessen haben, als die Hauptzähler geliefert haben: {{count}}, zusammen {{kwh}} kWh (nicht verrechnet)",
      fr: "Attention : quarts d’heure où les compteurs des participants ont mesuré plus que ce que les compteurs principaux ont fourni : {{count}}, au total {{kwh}} kWh (non facturé)",
      it: "Attenzione: quarti d’ora in cui i contatori dei partecipanti hanno misurato più di quanto fornito dai contatori principali: {{count}}, in tutto {{kwh}} kWh (non fatturato)",
    },
  },
  /** Electricity, water and heat reports: stretches without meter readings, not counted as 0 silently (SPEC §2). */
  gaps: {
    gap: {
      en: 'Missing data: {{meter}} sent no readings from {{from}} to {{to}}; the figures above lack this time',
      de: 'Fehlende Daten: {{meter}} lieferte von {{from}} bis {{to}} keine Messwerte; diese Zeit fehlt in den Zahlen oben',
      fr: 'Données manquantes : {{meter}} n’a envoyé aucune mesure du {{from}} au {{to}} ; ce temps manque dans les chiffres ci-dessus',
      it: 'Dati mancanti: {{meter}} non ha inviato misure dal {{from}} al {{to}}; questo periodo manca nelle cifre sopra',
    },
    more: {
      en: '… and {{count}} more stretches with missing data',
      de: '… und {{count}} weitere Zeiträume mit fehlenden Daten',
      fr: '… et {{count}} autres périodes avec des données manquantes',
      it: '… e altri {{count}} periodi con dati mancanti',
    },
  },
  series: {
    consumption: { en: 'Consumption', de: 'Verbrauch', fr: 'Consommation', it: 'Consumo' },
    grid_import: { en: 'Grid purchase', de: 'Netzbezug', fr: 'Achat au réseau', it: 'Prelievo dalla rete' },
    grid_export: { en: 'Grid feed-in', de: 'Netzeinspeisung', fr: 'Injection au réseau', it: 'Immissione in rete' },
    pv_production: { en: 'Solar production', de: 'Solarproduktion', fr: 'Production solaire', it: 'Produzione solare' },
    own_consumption: { en: 'Own consumption', de: 'Eigenverbrauch', fr: 'Autoconsommation', it: 'Autoconsumo' },
    battery_charge: { en: 'Battery charge', de: 'Batterieladung', fr: 'Charge de la batterie', it: 'Carica della batteria' },
    battery_discharge: { en: 'Battery discharge', de: 'Batterieentladung', fr: 'Décharge de la batterie', it: 'Scarica della batteria' },
    charging_stations: { en: 'Charging stations', de: 'Ladestationen', fr: 'Bornes de recharge', it: 'Stazioni di ricarica' },
    heat: { en: 'Heat', de: 'Wärme', fr: 'Chaleur', it: 'Calore' },
    cold_water: { en: 'Cold water', de: 'Kaltwasser', fr: 'Eau froide', it: 'Acqua fredda' },
    hot_water: { en: 'Hot water', de: 'Warmwasser', fr: 'Eau chaude', it: 'Acqua calda' },
    cost: { en: 'Cost', de: 'Kosten', fr: 'Coûts', it: 'Costi' },
    building: { en: 'Building', de: 'Gebäude', fr: 'Bâtiment', it: 'Edificio' },
  } as Record<string, Record<Lang, string>>,
  body: {
    en: 'Attached is the {{report}} of {{installation}} for {{from}} to {{to}}.',
    de: 'Im Anhang finden Sie den {{report}} von {{installation}} für {{from}} bis {{to}}.',
    fr: 'Vous trouverez en pièce jointe le {{report}} de {{installation}} du {{from}} au {{to}}.',
    it: 'In allegato trova il {{report}} di {{installation}} dal {{from}} al {{to}}.',
  },
} as const

/** Fill `{{name}}` placeholders. */
export const fill = (text: string, params: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => params[k] ?? '')

export type { Lang }
