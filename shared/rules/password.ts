/**
 * The new-password rule of SPEC §5 and §9: at least 8 characters with a number and a symbol (any
 * character that is neither a letter nor a digit nor white space counts as a symbol). Used by the API
 * and the client, so both refuse the same passwords.
 */
export const PASSWORD_MIN_LENGTH = 8

/** Whether `password` satisfies the SPEC §5 rule. */
export function isStrongPassword(password: string): boolean {
  return password.length >= PASSWORD_MIN_LENGTH && /\p{Nd}/u.test(password) && /[^\p{L}\p{Nd}\s]/u.test(password)
}
