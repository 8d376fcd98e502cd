import { PDFParse } from 'pdf-parse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import ExcelJS from 'exceljs'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'
import { createReportJob } from '../../server/jobs/reports.ts'
import { createTestClock } from '../../server/lib/clock.ts'

let app: FastifyInstance
let other: Awaited<ReturnType<typeof startWithTokens>>['other']
let tokens: RoleTokens
let reportsDir: string
const INST = 1
const base = (inst = INST) => `/api/cockpit/installations/${inst}/reports`
const api = () => request(app.server)
const outbox = () => app.domain!.db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'report').orderBy('id').execute()
const attachment = (row: { attachments: { content_base64: string }[] }) => Buffer.from(row.attachments[0].content_base64, 'base64').toString('utf8')

beforeAll(async () => {
  const started = await startWithTokens(['api'])
  ;({ app, other, tokens } = started)
  reportsDir = started.config.reportsDir!
  // Some energy in March 2026 for the reports: 10 kWh grid import per day at noon.
  const meter = await app.domain!.db.selectFrom('meters').select('id').where('installation_id', '=', INST).where('meter_type', '=', 'main_power').executeTakeFirstOrThrow()
  const rows = []
  for (let d = 1; d <= 31; d++) rows.push({ meter_id: meter.id, bucket: new Date(Date.UTC(2026, 2, d, 11)), energy_in_kwh: 10, energy_out_kwh: 0, volume_m3: 0, power_sum: 40, samples: 1, soc_last: null })
  await app.domain!.db.insertInto('measurements_15m').values(rows).execute()
})
afterAll(async () => app?.close())

const report = { name: 'Monthly power', report_type: 'electrical', recipients: ['bern-admin@example.com', 'office@example.org'], intervals: ['m'], show_deltas: true, language: 'fr' }

describe('reports CRUD and rights', () => {
  it('lets admins manage reports; users and other installations are refused', async () => {
    const created = await api().post(`${base()}/`).set(auth(tokens.admin)).send(report).expect(201)
    expect(created.body).toMatchObject({ name: 'Monthly power', intervals: ['m'], show_deltas: true, last_runs: {} })
    const id = created.body.id
    expect((await api().patch(`${base()}/${id}/`).set(auth(tokens.admin)).send({ name: 'Power monthly' }).expect(200)).body.name).toBe('Power monthly')
    expect((await api().get(`${base()}/`).set(auth(tokens.super)).expect(200)).body.count).toBe(1)
    await api().get(`${base()}/`).set(auth(tokens.user)).expect(403)
    await api().post(`${base()}/`).set(auth(tokens.user)).send(report).expect(403)
    await api().get(`${base()}/${id}/`).set(auth(tokens.bern)).expect(403)
    await api().get(`${base(other.installationId)}/${id}/`).set(auth(tokens.bern)).expect(404)
    const bad = await api().post(`${base()}/`).set(auth(tokens.admin)).set('Accept-Language', 'de').send({ ...report, recipients: ['not-an-address'], intervals: ['x'] }).expect(400)
    expect(bad.body['recipients.0']).toEqual(['Das Feld ist keine gültige E-Mail-Adresse'])
    expect(bad.body['intervals.0']).toHaveLength(1)
    const zev = await api().get(`${base()}/zev`).set(auth(tokens.admin)).expect(200)
    expect(zev.body).toMatchObject({ report_type: 'zev', intervals: ['m'] })
    const patched = await api().patch(`${base()}/zev`).set(auth(tokens.admin)).send({ recipients: ['admin@example.com'], intervals: ['q', 'y'] }).expect(200)
    expect(patched.body).toMatchObject({ id: zev.body.id, recipients: ['admin@example.com'], intervals: ['q', 'y'] })
    await api().get(`${base()}/zev`).set(auth(tokens.user)).expect(403)
  })
})

describe('dispatch and schedule', () => {
  it('dispatches a CSV per recipient in their language through the outbox', async () => {
    const id = (await api().get(`${base()}/`).set(auth(tokens.admin))).body.results.find((r: { report_type: string }) => r.report_type === 'electrical').id
    const r = await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({ reportId: id, year: 2026 })
    expect(r.status).toBe(202)
    expect(r.body).toEqual({ queued: 2, files: [] })
    const mails = await outbox()
    const de = mails.find((m) => m.recipient === 'bern-admin@example.com')!
    const fr = mails.find((m) => m.recipient === 'office@example.org')!
    // The report's name first, then type, installation and the whole period.
    expect(de.subject).toBe(`${(await api().get(`${base()}/${id}/`).set(auth(tokens.admin))).body.name}: Strombericht Demo Residence Zürich 2026-01-01 – 2026-12-31`)
    expect(fr.body_text).toMatch(/^Vous trouverez en pièce jointe le Rapport d'électricité/)
    const csv = attachment(de)
    expect(csv.split('\r\n')[0]).toBe('\ufeffReihe;Einheit;Wert;Vorperiode;Veränderung')
    expect(csv).toContain('Netzbezug;kWh;310.000;0.000;310.000')
    // Money in centimes: CHF with 2 decimals, energy with 3.
    expect(csv).toMatch(/\r\nKosten;CHF;\d+\.\d{2};\d+\.\d{2};-?\d+\.\d{2}(\r\n|$)/)
    // The same table as PDF.
    const pdf = (de.attachments as { filename: string; content_type: string; content_base64: string }[])[1]
    expect(pdf).toMatchObject({ filename: 'electrical-report-2026-01-01.pdf', content_type: 'application/pdf' })
    expect(Buffer.from(pdf.content_base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-')
    // Written for people: the German recipient's PDF groups thousands and keeps the decimals.
    const parser = new PDFParse({ data: new Uint8Array(Buffer.from(pdf.content_base64, 'base64')) })
    const text = (await parser.getText()).text
    await parser.destroy()
    expect(text).toMatch(/Netzbezug\s+kWh\s+310\.000/)
    expect(text).not.toMatch(/\d{4}\.\d{3}/)
    // And as a workbook with numbers a spreadsheet can sum.
    const xlsx = (de.attachments as { filename: string; content_base64: string }[])[2]
    expect(xlsx.filename).toBe('electrical-report-2026-01-01.xlsx')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(Buffer.from(xlsx.content_base64, 'base64') as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]
    expect(sheet.getRow(1).values).toEqual([undefined, 'Reihe', 'Einheit', 'Wert', 'Vorperiode', 'Veränderung'])
    const gridRow = sheet.getRows(2, sheet.rowCount - 1)!.find((r) => r.getCell(1).value === 'Netzbezug')!
    expect(gridRow.getCell(3).value).toBe(310)
    await api().post(`${base()}/dispatch`).set(auth(tokens.user)).send({ reportId: id }).expect(403)
    await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({}).expect(400)
  })

  it('runs each period once on schedule and makes up a missed run after a restart (fake clock)', async () => {
    await app.domain!.db.deleteFrom('mail_outbox').execute()
    const first = await app.domain!.reports.runDue(new Date('2026-04-01T00:20:00+02:00'))
    // Monthly electrical (March) and the ZEV report's quarter (Q1) and year (2025).
    expect(first.map((d) => [d.period.interval, d.period.from]).sort()).toEqual([['m', '2026-03-01'], ['q', '2026-01-01'], ['y', '2025-01-01']])
    expect(await app.domain!.reports.runDue(new Date('2026-04-01T00:35:00+02:00'))).toEqual([])
    expect(await app.domain!.reports.runDue(new Date('2026-04-30T23:50:00+02:00'))).toEqual([])
    const mails = await outbox()
    const march = mails.find((m) => m.recipient === 'bern-admin@example.com')!
    expect(attachment(march)).toContain('Netzbezug;kWh;310.000')
    const zev = mails.find((m) => m.recipient === 'admin@example.com' && m.subject.includes('2026-01-01'))!
    expect(attachment(zev).split('\r\n')[0]).toBe('\ufeffUnit;Consumption kWh;Solar kWh;Battery kWh;Grid kWh;Grid CHF;Solar & battery CHF;Cost CHF')
    expect(attachment(zev)).toMatch(/\r\nBuilding;310\.000;0\.000;0\.000;310\.000;/)
    // Down from 30 April to 3 June: one make-up run for May only.
    const later = await app.domain!.reports.runDue(new Date('2026-06-03T09:00:00+02:00'))
    expect(later.map((d) => [d.period.interval, d.period.from])).toEqual([['m', '2026-05-01']])
    const stored = await api().get(`${base()}/`).set(auth(tokens.admin))
    expect(stored.body.results.find((r: { report_type: string }) => r.report_type === 'electrical').last_runs).toEqual({ m: '2026-05-31T22:00:00.000Z' })
  })
})

describe('year and output directory', () => {
  it('keeps the year and a relative output directory; refuses a directory that leaves its folder', async () => {
    const created = await api().post(`${base()}/`).set(auth(tokens.admin)).send({ ...report, name: 'Yearly heat', report_type: 'heat', year: 2025, output_directory: 'exports/heat' }).expect(201)
    expect(created.body).toMatchObject({ year: 2025, output_directory: 'exports/heat' })
    for (const bad of ['../../etc', '/var/lib', 'exports/../../x', 'C:\\reports', 'a//b']) {
      const r = await api().patch(`${base()}/${created.body.id}/`).set(auth(tokens.admin)).send({ output_directory: bad }).expect(400)
      expect(r.body.output_directory, bad).toHaveLength(1)
    }
    expect((await api().get(`${base()}/${created.body.id}/`).set(auth(tokens.admin)).expect(200)).body.output_directory).toBe('exports/heat')
    // Dispatch without a year sends the report's own year: a mail for 2025, not the current year.
    await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({ reportId: created.body.id }).expect(202)
    expect((await outbox()).some((m) => m.subject.includes('2025-01-01'))).toBe(true)
    await api().delete(`${base()}/${created.body.id}/`).set(auth(tokens.admin)).expect(204)
  })
})

describe('files in the output directory (SPEC §3 "output directory")', () => {
  type Attachment = { filename: string; content_base64: string }
  const inInstallation = (...p: string[]) => path.join(reportsDir, String(INST), ...p)
  const create = async (body: Record<string, unknown>) => (await api().post(`${base()}/`).set(auth(tokens.admin)).send({ ...report, intervals: [], ...body }).expect(201)).body as { id: number }
  /** Every file under `dir`, as paths relative to it. */
  const tree = (dir: string): string[] => (fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).sort() : [])

  it('writes the CSV, PDF and XLSX a dispatch mails into the report\'s folder under REPORTS_DIR/<installation>', async () => {
    // office@example.org has no account: the report's language (fr), like the files.
    const { id } = await create({ name: 'Monthly power 2026', recipients: ['office@example.org'], output_directory: 'exports/power', language: 'fr' })
    await app.domain!.db.deleteFrom('mail_outbox').execute()
    const r = await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({ reportId: id, year: 2026 }).expect(202)
    const names = ['csv', 'pdf', 'xlsx'].map((ext) => `Monthly-power-2026_2026-01-01_2026-12-31.${ext}`)
    expect(r.body).toEqual({ queued: 1, files: names.map((n) => `exports/power/${n}`) })
    expect(tree(inInstallation('exports', 'power'))).toEqual(names)
    const mailed = (await outbox())[0].attachments as Attachment[]
    for (const [i, n] of names.entries()) {
      expect(fs.readFileSync(inInstallation('exports', 'power', n)).equals(Buffer.from(mailed[i].content_base64, 'base64')), n).toBe(true)
    }
    expect(fs.readFileSync(inInstallation('exports', 'power', names[0]), 'utf8').split('\r\n')[0]).toBe('\ufeffSérie;Unité;Valeur;Période précédente;Variation')
    // Sent again: the files are replaced whole, nothing is added beside them.
    await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({ reportId: id, year: 2026 }).expect(202)
    expect(tree(inInstallation('exports', 'power'))).toEqual(names)
    // A report with a folder and no recipients can be sent: files only.
    const filesOnly = await create({ name: 'Archive', recipients: [], output_directory: 'archive' })
    expect((await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({ reportId: filesOnly.id, year: 2026 }).expect(202)).body.queued).toBe(0)
    expect(tree(inInstallation('archive'))).toHaveLength(3)
  })

  it('refuses a directory that would leave the installation\'s folder with the SPEC-worded 400, and writes nothing', async () => {
    const before = tree(reportsDir)
    const { id } = await create({ name: 'Traversal', recipients: ['office@example.org'], output_directory: 'safe' })
    const bad = ['../../etc', '..', '.', '/etc/cron.d', '/tmp', 'exports/../../x', 'exports/..', 'C:\\reports', 'C:/reports', 'a\\b', 'a//b', 'a/', '/', 'exports/.hidden', '.ssh', '%2e%2e/x', 'exports/ space', '~root', 'x'.repeat(501)]
    for (const dir of bad) {
      const created = await api().post(`${base()}/`).set(auth(tokens.admin)).send({ ...report, name: 'x', output_directory: dir }).expect(400)
      expect(created.body.output_directory, dir).toEqual([dir.length > 500 ? 'Ensure the field output_directory has no more than 500 characters.' : 'Please enter a valid output directory: folder names separated by "/", e.g. exports/heat'])
      await api().patch(`${base()}/${id}/`).set(auth(tokens.admin)).send({ output_directory: dir }).expect(400)
    }
    await api().patch(`${base()}/${id}/`).set(auth(tokens.admin)).send({ output_directory: 'a\u0000b' }).expect(400)
    for (const [lang, text] of [['de', 'Bitte geben Sie einen gültigen Ausgabeordner ein'], ['fr', 'Veuillez saisir un dossier de sortie valide'], ['it', 'Inserisca una cartella di destinazione valida']]) {
      const r = await api().patch(`${base()}/${id}/`).set(auth(tokens.admin)).set('Accept-Language', lang).send({ output_directory: '../x' }).expect(400)
      expect(r.body.output_directory[0]).toMatch(new RegExp(`^${text}`))
    }
    expect((await api().get(`${base()}/${id}/`).set(auth(tokens.admin)).expect(200)).body.output_directory).toBe('safe')
    expect(tree(reportsDir)).toEqual(before)

    // A value stored before the rule (or behind the API's back) is checked again when writing: 400, no mail, no file.
    await app.domain!.db.deleteFrom('mail_outbox').execute()
    await app.domain!.db.updateTable('reports').set({ output_directory: '../../escaped' }).where('id', '=', id).execute()
    const refused = await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({ reportId: id, year: 2026 }).expect(400)
    expect(Object.keys(refused.body)).toEqual(['output_directory'])
    expect(await outbox()).toEqual([])
    expect(fs.existsSync(path.resolve(reportsDir, String(INST), '../../escaped'))).toBe(false)
    expect(tree(reportsDir)).toEqual(before)
  })

  it('does not follow a symbolic link out of the reports folder', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-outside-'))
    fs.mkdirSync(inInstallation('linked'), { recursive: true })
    fs.symlinkSync(outside, inInstallation('linked', 'away'))
    const { id } = await create({ name: 'Linked', recipients: [], output_directory: 'linked/away' })
    const r = await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({ reportId: id, year: 2026 }).expect(400)
    expect(Object.keys(r.body)).toEqual(['output_directory'])
    await api().patch(`${base()}/${id}/`).set(auth(tokens.admin)).send({ output_directory: 'linked/away/deeper' }).expect(200)
    await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({ reportId: id, year: 2026 }).expect(400)
    expect(fs.readdirSync(outside)).toEqual([])
    // A link in place of the file itself is replaced, not written through.
    const victim = path.join(outside, 'victim.txt')
    fs.writeFileSync(victim, 'keep me')
    fs.mkdirSync(inInstallation('plain'), { recursive: true })
    fs.symlinkSync(victim, inInstallation('plain', 'Linked_2026-01-01_2026-12-31.csv'))
    await api().patch(`${base()}/${id}/`).set(auth(tokens.admin)).send({ output_directory: 'plain' }).expect(200)
    await api().post(`${base()}/dispatch`).set(auth(tokens.admin)).send({ reportId: id, year: 2026 }).expect(202)
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me')
    expect(fs.lstatSync(inInstallation('plain', 'Linked_2026-01-01_2026-12-31.csv')).isFile()).toBe(true)
    fs.rmSync(outside, { recursive: true, force: true })
  })

  it('writes on schedule too, and the server\'s journal names each file written (or not written)', async () => {
    const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = []
    const log = { info: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'info', obj, msg }), error: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'error', obj, msg }) } as unknown as FastifyBaseLogger
    const { id } = await create({ name: 'Scheduled heat', report_type: 'heat', recipients: [], output_directory: 'scheduled', intervals: ['m'] })
    const broken = await create({ name: 'Broken', recipients: ['office@example.org'], output_directory: 'fine', intervals: ['m'] })
    await app.domain!.db.updateTable('reports').set({ output_directory: '../broken' }).where('id', '=', broken.id).execute()
    await app.domain!.db.deleteFrom('mail_outbox').execute()
    // The job asks the domain's clock what is due: here a clock standing at 1 April 00:20.
    await createReportJob({ domain: { ...app.domain!, clock: createTestClock('2026-04-01T00:20:00+02:00') }, log }).run()
    const names = ['csv', 'pdf', 'xlsx'].map((ext) => `Scheduled-heat_2026-03-01_2026-03-31.${ext}`)
    expect(tree(inInstallation('scheduled'))).toEqual(names)
    expect(lines.find((l) => l.msg === 'report files written' && l.obj.report === id)?.obj).toMatchObject({ interval: 'm', from: '2026-03-01', files: names.map((n) => `scheduled/${n}`) })
    // The unsafe folder is journaled as an error; its mail still goes out and nothing is written.
    expect(lines.find((l) => l.level === 'error' && l.obj.report === broken.id)?.msg).toBe('report files not written')
    expect((await outbox()).map((m) => m.recipient)).toEqual(['office@example.org'])
    expect(fs.existsSync(path.resolve(reportsDir, String(INST), '../broken'))).toBe(false)
  })
})
