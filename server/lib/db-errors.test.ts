import { describe, expect, it } from 'vitest'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { dbErrorAnswer } from './db-errors.ts'

/** What each driver throws for `sql`: PGlite's error for real, node-postgres' as its protocol parser builds it. */
async function pgliteError(db: PGlite, sql: string, params: unknown[]): Promise<unknown> {
  return db.query(sql, params).then(
    () => null,
    (e: unknown) => e,
  )
}
function pgError(code: string): unknown {
  const e = new pg.DatabaseError('value out of range', 0, 'error') as pg.DatabaseError & { code: string; severity: string }
  e.severity = 'ERROR'
  e.code = code
  return e
}

describe('dbErrorAnswer (the bad-input backstop)', () => {
  it('turns data errors of PGlite into 400 and unique violations into 409', async () => {
    const db = new PGlite()
    await db.exec('create table t (id integer primary key, s text, d date, parent integer references t(id))')
    await db.query('insert into t (id) values (1)')
    const cases: [string, unknown[], number | null, string][] = [
      ['insert into t (id) values ($1)', [2 ** 31], 400, '22003'],
      ['insert into t (id, s) values (2, $1)', ['a\u0000b'], 400, '22021'],
      ['insert into t (id, d) values (3, $1)', ['0000-01-01'], 400, '22008'],
      ['select * from t where id = $1', ['x'], 400, '22P02'],
      ['insert into t (id, parent) values (4, $1)', [99], 400, '23503'],
      ['insert into t (id) values ($1)', [1], 409, '23505'],
      ['select * from missing', [], null, '42P01'],
    ]
    for (const [sql, params, status, code] of cases) {
      const err = await pgliteError(db, sql, params)
      expect((err as { code?: string }).code, sql).toBe(code)
      expect(dbErrorAnswer(err)?.status ?? null, sql).toBe(status)
    }
    await db.close()
  })

  it('reads node-postgres errors alike and leaves other errors alone', () => {
    expect(dbErrorAnswer(pgError('22003'))).toEqual({ status: 400, key: 'invalidValue', code: '22003' })
    expect(dbErrorAnswer(pgError('23505'))?.status).toBe(409)
    expect(dbErrorAnswer(pgError('40001'))).toBeNull()
    expect(dbErrorAnswer(Object.assign(new Error('socket'), { code: 'EPIPE' }))).toBeNull()
    expect(dbErrorAnswer(new Error('boom'))).toBeNull()
  })
})
