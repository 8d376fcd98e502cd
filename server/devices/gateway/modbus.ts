import net from 'node:net'
import Modbus from 'jsmodbus'
import type { ModbusSourceConfig } from '../../../shared/schemas/meters.ts'
import type { MeterType } from '../../db/schema.ts'
import { SDM630, SUNSPEC_BASES, decodeSdm630, decodeSunSpec, discoverSunSpec, mergeSamples, type Sample, type SunSpecModel } from './registers.ts'

/** How long a connection or one request to a device may take before the read fails, ms (network time). */
export const MODBUS_TIMEOUT_MS = 3000

/**
 * The SunSpec models read for a meter of `meterType`, most telling first: a grid or sub-meter prefers a
 * meter model (201–204), a PV meter an inverter (101–103), a battery its state of charge (802, 124) and
 * then the power of its inverter or meter.
 */
export function sunspecOrder(meterType: MeterType): number[] {
  const inverters = [101, 102, 103, 111, 112, 113]
  const meters = [201, 202, 203, 204, 211, 212, 213, 214]
  if (meterType === 'pv') return [...inverters, ...meters]
  if (meterType === 'battery') return [802, 124, ...inverters, ...meters]
  return [...meters, ...inverters]
}

/**
 * One Modbus TCP device (ModbusSourceConfig: host, port, unit id, register map), read by the gateway
 * with jsmodbus. The TCP connection is kept between reads and made again after it broke; a SunSpec
 * device's map is discovered once per connection. `read()` answers a Sample or throws with the reason
 * (connection refused, timeout, an exception answer, a map without the models the meter needs).
 */
export function createModbusDevice(config: ModbusSourceConfig, meterType: MeterType) {
  let socket: net.Socket | null = null
  let client: InstanceType<typeof Modbus.client.TCP> | null = null
  let models: SunSpecModel[] | null = null
  let base = SUNSPEC_BASES[0] as number

  function drop() {
    socket?.destroy()
    socket = null
    client = null
    models = null
  }

  async function connect(): Promise<InstanceType<typeof Modbus.client.TCP>> {
    if (client && socket && !socket.destroyed) return client
    drop()
    const s = new net.Socket()
    const c = new Modbus.client.TCP(s, config.unit_id, MODBUS_TIMEOUT_MS)
    await new Promise<void>((resolve, reject) => {
      const fail = (err: Error) => {
        s.destroy()
        reject(err)
      }
      s.setTimeout(MODBUS_TIMEOUT_MS, () => fail(new Error(`connection to ${config.host}:${config.port} timed out`)))
      s.once('error', fail)
      s.connect({ host: config.host, port: config.port }, () => {
        s.setTimeout(0)
        s.off('error', fail)
        resolve()
      })
    })
    // A broken connection is made again at the next read.
    s.on('error', () => drop())
    s.on('close', () => {
      if (socket === s) drop()
    })
    socket = s
    client = c
    return c
  }

  const holding = async (start: number, count: number): Promise<Buffer> => (await (await connect()).readHoldingRegisters(start, count)).response.body.valuesAsBuffer as Buffer

  async function readSunSpec(): Promise<Sample> {
    if (!models) {
      let lastErr: unknown
      for (const b of SUNSPEC_BASES) {
        try {
          models = await discoverSunSpec(b, holding)
          base = b
          break
        } catch (err) {
          lastErr = err
          if (!socket) throw err
        }
      }
      if (!models) throw lastErr instanceof Error ? lastErr : new Error(String(lastErr))
    }
    const order = sunspecOrder(meterType)
    const wanted = order.flatMap((id) => models!.filter((m) => m.id === id))
    if (!wanted.length) throw new Error(`SunSpec map at ${base} has none of the models ${order.join(', ')} (found ${models.map((m) => m.id).join(', ') || 'none'})`)
    const samples: Sample[] = []
    // A Modbus request reads at most 125 registers (Modbus application protocol §6.3).
    for (const m of wanted) samples.push(decodeSunSpec(m.id, await holding(m.start, Math.min(m.length, 125))))
    return mergeSamples(samples)
  }

  return {
    /** Read the device once; throws with the reason when it cannot be read. */
    async read(): Promise<Sample> {
      try {
        if (config.model === 'sdm630') {
          const r = await (await connect()).readInputRegisters(SDM630.first, SDM630.count)
          return decodeSdm630(r.response.body.valuesAsBuffer as Buffer)
        }
        return await readSunSpec()
      } catch (err) {
        // A timeout or an exception answer leaves the connection in doubt: start afresh next time.
        drop()
        throw err
      }
    },
    /** Close the connection. */
    close: drop,
  }
}
export type ModbusDevice = ReturnType<typeof createModbusDevice>
