import net from 'node:net'
import type { AddressInfo } from 'node:net'
import Modbus from 'jsmodbus'

/**
 * Modbus TCP devices for tests, served by jsmodbus on a free port of 127.0.0.1: an Eastron SDM630 (its
 * input registers as float32, high word first) and a SunSpec PV inverter (holding registers from 40000:
 * 'SunS', common model 1, inverter model 103 with scale factors, end marker), or a SunSpec device of the
 * float models (common model 1, then meter model 213 or inverter model 113, float32 points, NaN where not
 * implemented). Tests set their figures.
 */
export async function startModbusDevice(kind: 'sdm630' | 'sunspec' | 'sunspec-float-meter' | 'sunspec-float-inverter') {
  const netServer = new net.Server()
  const sockets = new Set<net.Socket>()
  netServer.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  const input = Buffer.alloc(400)
  const holding = Buffer.alloc(41_000 * 2)
  new Modbus.server.TCP(netServer, { input, holding })
  await new Promise<void>((resolve) => netServer.listen(0, '127.0.0.1', resolve))
  const port = (netServer.address() as AddressInfo).port

  // SunSpec map: 'SunS' at 40000, model 1 (L 66), model 103 (L 50), end.
  const M1 = 40002
  const M103 = M1 + 2 + 66
  const END = M103 + 2 + 50
  if (kind === 'sunspec') {
    holding.writeUInt16BE(0x5375, 40000 * 2)
    holding.writeUInt16BE(0x6e53, 40001 * 2)
    holding.writeUInt16BE(1, M1 * 2)
    holding.writeUInt16BE(66, (M1 + 1) * 2)
    holding.write('Cockpit Test'.padEnd(32, '\0'), (M1 + 2) * 2, 'latin1')
    holding.writeUInt16BE(103, M103 * 2)
    holding.writeUInt16BE(50, (M103 + 1) * 2)
    holding.writeUInt16BE(0xffff, END * 2)
    holding.writeUInt16BE(0, (END + 1) * 2)
  }
  const reg103 = (offset: number) => (M103 + 2 + offset) * 2
  // Float maps: 'SunS', model 1 (L 66), model 213 (L 124) or 113 (L 60), end; every float point NaN at first.
  const floatModel = kind === 'sunspec-float-meter' ? { id: 213, length: 124 } : { id: 113, length: 60 }
  const MF = M1 + 2 + 66
  if (kind === 'sunspec-float-meter' || kind === 'sunspec-float-inverter') {
    holding.writeUInt16BE(0x5375, 40000 * 2)
    holding.writeUInt16BE(0x6e53, 40001 * 2)
    holding.writeUInt16BE(1, M1 * 2)
    holding.writeUInt16BE(66, (M1 + 1) * 2)
    holding.write('Cockpit Float'.padEnd(32, '\0'), (M1 + 2) * 2, 'latin1')
    holding.writeUInt16BE(floatModel.id, MF * 2)
    holding.writeUInt16BE(floatModel.length, (MF + 1) * 2)
    for (let o = 0; o + 1 < floatModel.length; o += 2) holding.writeFloatBE(Number.NaN, (MF + 2 + o) * 2)
    holding.writeUInt16BE(0xffff, (MF + 2 + floatModel.length) * 2)
    holding.writeUInt16BE(0, (MF + 3 + floatModel.length) * 2)
  }

  return {
    port,
    /** SDM630: set its registers (kWh, W, V, A). */
    setSdm630(v: { importKwh: number; exportKwh: number; powerW: number; volts: [number, number, number]; amps: [number, number, number] }) {
      v.volts.forEach((x, i) => input.writeFloatBE(x, i * 4))
      v.amps.forEach((x, i) => input.writeFloatBE(x, 12 + i * 4))
      input.writeFloatBE(v.powerW, 52 * 2)
      input.writeFloatBE(v.importKwh, 72 * 2)
      input.writeFloatBE(v.exportKwh, 74 * 2)
    },
    /**
     * SunSpec inverter 103: power `w` raw with W_SF `wSf`, lifetime energy `wh` raw (acc32) with WH_SF
     * `whSf`, phase currents raw with A_SF -1, phase voltages raw with V_SF -1.
     */
    setInverter(v: { w: number; wSf: number; wh: number; whSf: number; ampsX10: [number, number, number]; voltsX10: [number, number, number] }) {
      v.ampsX10.forEach((x, i) => holding.writeUInt16BE(x, reg103(1 + i)))
      holding.writeInt16BE(-1, reg103(4))
      v.voltsX10.forEach((x, i) => holding.writeUInt16BE(x, reg103(8 + i)))
      holding.writeInt16BE(-1, reg103(11))
      holding.writeInt16BE(v.w, reg103(12))
      holding.writeInt16BE(v.wSf, reg103(13))
      holding.writeUInt32BE(v.wh, reg103(22))
      holding.writeInt16BE(v.whSf, reg103(24))
    },
    /** SunSpec float model (213 or 113): set float32 points by their offset in the model's data (e.g. 26: W of model 213). */
    setFloats(points: Record<number, number>) {
      for (const [offset, value] of Object.entries(points)) holding.writeFloatBE(value, (MF + 2 + Number(offset)) * 2)
    },
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => netServer.close(() => resolve()))
    },
  }
}
export type ModbusTestDevice = Awaited<ReturnType<typeof startModbusDevice>>
