/** SPEC §5 validation of the login form; answers message keys of the login namespace. */

// Permissive address pattern (SPEC §5): something@something.something without spaces.
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export interface LoginErrors {
  email?: 'validation.required' | 'validation.email'
  password?: 'validation.required'
}

export function validateLogin(email: string, password: string): LoginErrors {
  const errors: LoginErrors = {}
  const trimmed = email.trim()
  if (!trimmed) errors.email = 'validation.required'
  else if (!EMAIL.test(trimmed)) errors.email = 'validation.email'
  if (!password) errors.password = 'validation.required'
  return errors
}
