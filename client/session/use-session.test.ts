import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('wouter/use-browser-location', () => ({ navigate: () => undefined }))
const memory = new Map<string, string>()
vi.stubGlobal('localStorage', {
  getItem: (k: string) => memory.get(k) ?? null,
  setItem: (k: string, v: string) => void memory.set(k, String(v)),
  removeItem: (k: string) => void memory.delete(k),
})

const { session } = await import('./session.ts')
const { watchSession } = await import('./use-session.ts')
import type { Installation } from '../../shared/schemas/installation.ts'
import type { User } from '../../shared/schemas/auth.ts'

// valtio tells subscribers after the current task's changes, in a microtask.
const settled = () => new Promise((r) => setTimeout(r, 0))

const installation = (id: number) => ({ id, name: `Site ${id}`, role: 'installation_admin', timezone: 'Europe/Zurich' }) as unknown as Installation
const user = { id: 5, full_name: 'Ada Admin', ietf_lang_tag: 'de-CH' } as unknown as User

describe('watchSession (the shell under useSession)', () => {
  beforeEach(() => {
    session.user = null
    session.installations = null
    session.installationsLoadedAt = null
  })

  it('tells a reader of the list when the list arrives, not when the user does', async () => {
    const lists: unknown[] = []
    const names: unknown[] = []
    const stopLists = watchSession((s) => s.installations, (v) => lists.push(v))
    const stopNames = watchSession((s) => s.user?.full_name ?? null, (v) => names.push(v))

    session.user = user
    await settled()
    expect(lists).toEqual([])
    expect(names).toEqual(['Ada Admin'])

    session.installations = [installation(1), installation(2)]
    session.installationsLoadedAt = Date.now()
    await settled()
    expect(lists).toHaveLength(1)
    expect((lists[0] as Installation[]).map((i) => i.id)).toEqual([1, 2])
    expect(names).toEqual(['Ada Admin'])

    // The list's load time changes, the list does not: its readers have nothing to redo.
    session.installationsLoadedAt = Date.now() + 1
    await settled()
    expect(lists).toHaveLength(1)
    stopLists()
    stopNames()
  })

  it('stops when told', async () => {
    const calls: unknown[] = []
    const stop = watchSession((s) => s.userId, (v) => calls.push(v))
    session.userId = 7
    await settled()
    stop()
    session.userId = 8
    await settled()
    expect(calls).toEqual([7])
  })
})
