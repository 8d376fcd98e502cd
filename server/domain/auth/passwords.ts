import { hash, verify } from '@node-rs/argon2'

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, which type stripping cannot read). */
const ARGON2ID = 2
import { AUTH } from '../../../config/defaults.ts'

/** argon2id hash with the AUTH.argon2 cost (19 MiB, t = 2). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, ...AUTH.argon2 })
}

/** Whether `password` matches `stored`; false (never a throw) for a malformed hash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password)
  } catch {
    return false
  }
}

// A real hash to verify against when the account does not exist, so the answer takes as long.
let dummy: Promise<string> | undefined
export const dummyHash = () => (dummy ??= hashPassword('not-a-password-' + Math.random()))
