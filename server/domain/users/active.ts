/**
 * Whether an account may sign in and act at `now`. SPEC §4: a deactivation (with an optional date) sets
 * is_active false and stores deactivation_datetime; a date still ahead keeps the user in until that
 * instant on the clock, then locks them out (docs/decisions.md "Accounts: e-mail change with password and
 * undo, access tokens denied at logout, deactivation from its date"). Without a date `is_active` decides.
 */
export function activeAt(user: { is_active: boolean; deactivation_datetime: Date | null }, now: Date): boolean {
  return user.deactivation_datetime ? user.deactivation_datetime.getTime() > now.getTime() : user.is_active
}
