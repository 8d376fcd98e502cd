import ocppRpc from 'ocpp-rpc'
import type { Domain } from '../../domain/index.ts'
import type { ChargePointRef, SampledValue } from '../../domain/ocpp/service.ts'
import { readSamples } from '../../domain/ocpp/service.ts'
import { chargerTime, type OfflineGap } from '../../domain/ocpp/plausibility.ts'

const { createRPCError } = ocppRpc

/** What a charge point's message handlers need of its connection. */
export interface HandlerContext {
  /** The charge point whose messages these are. */
  cp: ChargePointRef
  ocpp: Domain['ocpp']
  /** Run a handler after the charge point's earlier messages (index.ts). */
  serial: <T>(fn: (ref: ChargePointRef) => Promise<T>) => Promise<T>
  now: () => Date
  /** Silence that marks a charge point offline, ms (live power is only taken from samples more recent). */
  silenceMs: number
  heartbeatSeconds: number
  /** The charger's offline gap before this connection (plausibility.ts chargerTime). */
  gap: Promise<OfflineGap | null>
}

/**
 * The OCPP 1.6J messages a charge point sends (OCPP 1.6 §4 "Operations initiated by Charge Point"), each
 * handled through the domain's OCPP service one after another (`serial`). Actions of OCPP 1.6 the central
 * system does not take are NotSupported; actions OCPP 1.6 does not know were answered NotImplemented by the
 * validator (protocol.ts).
 */
export function handleMessages(client: { handle(method: string, handler: (call: { params: any }) => unknown): void; handle(handler: (call: { method: string; params: any }) => unknown): void }, ctx: HandlerContext): void {
  const { ocpp, serial, now, silenceMs, heartbeatSeconds, cp } = ctx
  const recent = (t: Date) => now().getTime() - t.getTime() < silenceMs
  /** The time stored for a charger timestamp (plausibility.ts chargerTime: its own, or the server's when off). */
  const stamp = async (ts: string) => chargerTime(ts, now(), await ctx.gap)

  client.handle('BootNotification', ({ params }) => serial(async () => {
    await ocpp.boot(cp, { vendor: params.chargePointVendor, model: params.chargePointModel, firmware: params.firmwareVersion, serial: params.chargePointSerialNumber ?? params.chargeBoxSerialNumber }, now())
    // A rebooted charger never stops the transactions it had open (OCPP 1.6 §4.2 "Boot Notification").
    await ocpp.closeOpen(cp, null, 'reboot', now())
    // A rebooted charger may have lost its profile: the current mode's is sent again.
    const p = await ocpp.profileOf(cp.stationId, now())
    if (p) await ocpp.enqueue(p.cp, 'SetChargingProfile', p.profile as unknown as Record<string, unknown>)
    await ocpp.authorizeFirst(cp.stationId)
    // Registers read often enough to split energy at tariff changes (commands.ts METER_INTERVALS).
    await ocpp.meterIntervals(cp)
    return { status: 'Accepted', currentTime: now().toISOString(), interval: heartbeatSeconds }
  }))
  // OCPP 1.6 §4.6 "Heartbeat": currentTime is the central system's clock, which chargers synchronise to.
  client.handle('Heartbeat', () => serial(async () => ({ currentTime: now().toISOString() })))
  client.handle('StatusNotification', ({ params }) => serial(async () => {
    await ocpp.status(cp, params.connectorId, params.status, params.errorCode)
    return {}
  }))
  client.handle('Authorize', ({ params }) => serial(async () => {
    const r = await ocpp.authorize(cp, params.idTag, now())
    return { idTagInfo: { status: r.status } }
  }))
  client.handle('StartTransaction', ({ params }) => serial(async () => {
    const t = await stamp(params.timestamp)
    const r = await ocpp.startTransaction(cp, { connectorId: params.connectorId, idTag: params.idTag, meterStartWh: params.meterStart, timestamp: t.at, clockCorrected: t.corrected }, new Date(now().getTime() - silenceMs))
    return { transactionId: r.transactionId, idTagInfo: { status: r.status } }
  }))
  const meterValues = async (transactionId: number | null, values: { timestamp: string; sampledValue: SampledValue[] }[]) => {
    const sorted = [...values].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp))
    const written: Promise<number>[] = []
    for (const mv of sorted) {
      // Live data more than 15 minutes off takes the receive time (flagged), unless queued while offline.
      const { at, corrected } = await stamp(mv.timestamp)
      const s = readSamples(mv.sampledValue)
      const tx = transactionId ?? (s.energyWh !== null || s.powerKw !== null ? await ocpp.openTransaction(cp) : null)
      const live = s.powerKw !== null && recent(at)
      // Batched with every charge point's samples; answered once stored (samples keep their order in a batch).
      if ((s.energyWh !== null && tx !== null) || live) written.push(ocpp.queueSample(cp, { transactionId: tx, energyWh: s.energyWh, powerKw: s.powerKw, at, live, corrected, soc: s.soc }))
    }
    await Promise.all(written)
  }
  client.handle('MeterValues', ({ params }) => serial(async () => {
    if (params.connectorId === cp.connectorId) await meterValues(params.transactionId ?? null, params.meterValue)
    return {}
  }))
  client.handle('StopTransaction', ({ params }) => serial(async () => {
    if (params.transactionData) await meterValues(params.transactionId, params.transactionData)
    const t = await stamp(params.timestamp)
    await ocpp.stopTransaction(cp, { transactionId: params.transactionId, meterStopWh: params.meterStop, timestamp: t.at, clockCorrected: t.corrected })
    return params.idTag ? { idTagInfo: { status: 'Accepted' } } : {}
  }))
  client.handle('DataTransfer', () => serial(async () => ({ status: 'UnknownVendorId' })))
  client.handle('DiagnosticsStatusNotification', () => serial(async () => ({})))
  client.handle('FirmwareStatusNotification', () => serial(async () => ({})))
  // An OCPP 1.6 action the central system does not take (one it sends, or of a profile it lacks):
  // NotSupported; an action OCPP 1.6 does not know was answered NotImplemented by the validator (protocol.ts).
  client.handle(({ method }) => {
    throw createRPCError('NotSupported', `${method} is not supported by this central system`)
  })
}
