import { createRequire } from 'node:module'
import ocppRpc from 'ocpp-rpc'

const { createValidator, createRPCError } = ocppRpc
const require = createRequire(import.meta.url)

/**
 * The error codes of OCPP-J 1.6 §4.2.3 (CallError), the only ones a 1.6 central system may send. ocpp-rpc
 * also speaks OCPP 2.0.1, whose codes (RpcFrameworkError, MessageTypeNotSupported, FormatViolation) a 1.6
 * charge point does not know.
 */
export const OCPP16_ERROR_CODES = [
  'NotImplemented', 'NotSupported', 'InternalError', 'ProtocolError', 'SecurityError', 'FormationViolation',
  'PropertyConstraintViolation', 'OccurenceConstraintViolation', 'OccurrenceConstraintViolation', 'TypeConstraintViolation', 'GenericError',
] as const

/**
 * A 2.0.1 error code → its OCPP-J 1.6 §4.2.3 counterpart: a frame that is no JSON array of the RPC
 * framework ("Payload for Action is syntactically incorrect or not conform the PDU structure") is a
 * FormationViolation, and so is a payload ocpp-rpc calls FormatViolation. OccurrenceConstraintViolation
 * stays as ocpp-rpc spells it after the OCPP-J 1.6 errata.
 */
export function ocpp16ErrorCode(code: string): string {
  if ((OCPP16_ERROR_CODES as readonly string[]).includes(code)) return code
  return code === 'RpcFrameworkError' || code === 'MessageTypeNotSupported' || code === 'FormatViolation' ? 'FormationViolation' : 'GenericError'
}

/**
 * The strict-mode validator for ocpp1.6 (ocpp-rpc's own JSON schemas of OCPP 1.6J), except that a CALL of an
 * action the schemas do not know is answered NotImplemented ("Requested Action is not known by receiver",
 * OCPP-J 1.6 §4.2.3), not ocpp-rpc's ProtocolError about a missing schema.
 */
export function ocpp16Validator() {
  const schemas = require('ocpp-rpc/lib/schemas/ocpp1_6.json') as { $id: string }[]
  const standard = createValidator('ocpp1.6', schemas)
  const ids = new Set(schemas.map((x) => x.$id))
  const known = (schemaId: string) => ids.has(schemaId)
  return {
    get subprotocol() {
      return 'ocpp1.6'
    },
    validate(schemaId: string, params: unknown) {
      if (!known(schemaId)) throw createRPCError('NotImplemented', `${schemaId.replace(/^urn:|\.(req|conf)$/g, '')} is not an OCPP 1.6 action`)
      return standard.validate(schemaId, params)
    },
  }
}

/**
 * Make every CALLERROR `client` sends carry an OCPP-J 1.6 §4.2.3 error code: ocpp-rpc answers frames it
 * cannot parse (no JSON, no array, an unknown message type) with 2.0.1 codes before any handler runs, so
 * the frame is translated on its way out (its raw send, ocpp-rpc's documented `sendRaw`).
 */
export function speakOcpp16Errors(client: { sendRaw(message: string): void }): void {
  const send = client.sendRaw.bind(client)
  client.sendRaw = (message: string) => {
    if (message.startsWith('[4,')) {
      try {
        const frame = JSON.parse(message) as [number, string, string, string, unknown]
        const code = ocpp16ErrorCode(frame[2])
        if (code !== frame[2]) return send(JSON.stringify([frame[0], frame[1], code, frame[3], frame[4]]))
      } catch {
        // Not ours to judge: sent as it is.
      }
    }
    return send(message)
  }
}
