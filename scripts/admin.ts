import readline from 'node:readline/promises'
import { Writable } from 'node:stream'
import { z } from 'zod'
import fs from 'node:fs/promises'
import { ConfigError, loadConfig, type Config } from '../config/env.ts'
import { DataDirLockedError, DataDirUnusableError, openDatabase, type Db } from '../server/db/connection.ts'
import { createClock, type Clock } from '../server/lib/clock.ts'
import { makeSuperuser, SuperuserRefused } from '../server/domain/auth/first-start.ts'
import { isStrongPassword } from '../shared/rules/password.ts'
import { createDomain } from '../server/domain/index.ts'
import type { Actor } from '../server/domain/auth/service.ts'
import { AppError, Invalid } from '../server/lib/errors.ts'
import { message } from '../server/lib/messages.ts'
import type { ConfigImportResult } from '../shared/schemas/configuration.ts'

/**
 * Operator commands (README "Production start"): `npm run admin -- <command> [arguments]`.
 *   create-superuser EMAIL   make the account a superuser with a new password, or create it
 *   import FILE [--dry-run]  import a configuration file (docs/configuration-files.md)
 *   export INSTALLATION_ID [FILE]  write an installation's configuration file (stdout without FILE)
 * The database is the server's (config/env.ts: DATABASE_URL, else the embedded PGlite in DATA_DIR, which
 * the server must not hold open: stop it first). Exit 0 on success, 1 when refused, 2 for wrong usage or
 * configuration. A command is one entry of {@link COMMANDS}.
 */

/** Where a command writes and reads: the process's streams, or a test's. */
export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
}

/** A subcommand: its usage line, one line on what it does, and its run, which answers the exit code. */
interface Command {
  usage: string
  summary: string
  run(args: string[], io: Io): Promise<number>
}

/** A refusal to report as one line on stderr with exit code `code`. */
class Refused extends Error {
  readonly code: number
  constructor(message: string, code = 1) {
    super(message)
    this.code = code
  }
}

/**
 * Run `fn` on the server's database (and its clock, CLOCK_START/CLOCK_SPEED as the server reads them);
 * closed afterwards. A bad variable or an unusable DATA_DIR is refused with code 2, a DATA_DIR held by
 * a running server with code 1.
 */
export async function withDatabase<T>(fn: (db: Db, clock: Clock, config: Config) => Promise<T>): Promise<T> {
  let config
  try {
    config = loadConfig(process.env)
  } catch (err) {
    if (err instanceof ConfigError) throw new Refused(err.message, 2)
    throw err
  }
  let database
  try {
    database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl })
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new Refused(err.message, 1)
    if (err instanceof DataDirUnusableError) throw new Refused(err.message, 2)
    throw err
  }
  try {
    return await fn(database.db, createClock({ start: config.clockStart, speed: config.clockSpeed }), config)
  } finally {
    await database.close()
  }
}

/** All of stdin as text (a password piped in by a script). */
async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = ''
  for await (const chunk of stdin) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
  return text
}

/**
 * A new password: on a terminal asked twice without echo (node:readline on a muted output); otherwise
 * the first line of stdin, and when a second line follows it must be the same (as the repeat prompt).
 */
async function readNewPassword(io: Io): Promise<string> {
  if (!io.stdin.isTTY) {
    const [password = '', repeat = ''] = (await readAll(io.stdin)).split(/\r?\n/)
    if (repeat && repeat !== password) throw new Refused('The entered passwords do not match')
    return password
  }
  let muted = false
  const output = new Writable({
    write(chunk, encoding, done) {
      if (!muted) io.stdout.write(chunk, encoding)
      done()
    },
  })
  const rl = readline.createInterface({ input: io.stdin, output, terminal: true })
  const ask = async (prompt: string) => {
    io.stdout.write(prompt)
    muted = true
    try {
      return await rl.question('')
    } finally {
      muted = false
      io.stdout.write('\n')
    }
  }
  try {
    const password = await ask('New password: ')
    const repeat = await ask('Repeat the password: ')
    if (repeat !== password) throw new Refused('The entered passwords do not match')
    return password
  } finally {
    rl.close()
  }
}

const Email = z.string().trim().toLowerCase().pipe(z.email())

export const COMMANDS: Record<string, Command> = {
  'create-superuser': {
    usage: 'create-superuser EMAIL',
    summary: 'make the account a superuser with a new password (the recovery of a locked-out operator), or create it',
    async run(args, io) {
      const email = Email.safeParse(args[0] ?? '')
      if (args.length !== 1 || !email.success) throw new Refused(`usage: npm run admin -- create-superuser EMAIL  (EMAIL: an address such as admin@cockpit.example.ch)`, 2)
      const password = await readNewPassword(io)
      // Refused before the database opens (which can take seconds); makeSuperuser checks it as well.
      if (!isStrongPassword(password)) throw new Refused('The password must be at least 8 characters long and contain a number and a symbol.')
      const done = await withDatabase(async (db, clock) => {
        try {
          return await makeSuperuser(db, { email: email.data, password, now: clock.now() })
        } catch (err) {
          if (err instanceof SuperuserRefused) throw new Refused(err.message)
          throw err
        }
      })
      io.stdout.write(done === 'created'
        ? `Created the superuser ${email.data}.\n`
        : `${email.data} is a superuser with the new password; its other sessions have ended.\n`)
      return 0
    },
  },
}

/** The operator at the console: a superuser without an account; the audit trail records it as the system (actor null). */
const CONSOLE: Actor = { id: 0, is_superuser: true }

/** The configuration service on the command's database (no secret is used: the JWT key is a throwaway). */
const configurationOn = (db: Db, clock: Clock, config: Config) => createDomain({ db, clock, jwtSecret: new Uint8Array(32), publicUrl: config.publicUrl }).configuration

/** A refusal of the configuration service as the lines the API would answer (English): `line 14, meters[2].unit: …`. */
function refusalText(err: unknown): string | null {
  if (err instanceof Invalid) return Object.entries(err.fields).flatMap(([f, ms]) => ms.map((m) => `${f}: ${typeof m === 'string' ? message(m, 'en', err.params) : message(m.key, 'en', m.params)}`)).join('\n')
  if (err instanceof AppError) return message(err.key, 'en', err.params)
  return null
}

/** What an import did, one line per change that is not "unchanged", then the counts and new credentials. */
function importReport(r: ConfigImportResult): string {
  const lines = r.changes.filter((c) => c.change !== 'unchanged').map((c) => `${r.dry_run ? 'would be ' : ''}${c.change.padEnd(9)} ${c.installation} › ${c.entity} ${c.key}${c.fields ? ` (${c.fields.join(', ')})` : ''}`)
  lines.push(`${r.dry_run ? 'Dry run, nothing changed: ' : ''}${r.installations.length} installation(s); ${r.summary.created} created, ${r.summary.updated} updated, ${r.summary.unchanged} unchanged.`)
  for (const c of r.ocpp_credentials) lines.push(`OCPP ${c.installation} › ${c.station}: id ${c.charge_point_id}, password ${c.password}, ${c.url}  (shown once)`)
  return lines.join('\n') + '\n'
}

COMMANDS.import = {
  usage: 'import FILE [--dry-run]',
  summary: 'import a configuration file of installations (docs/configuration-files.md); --dry-run shows what would change',
  async run(args, io) {
    const dryRun = args.includes('--dry-run')
    const files = args.filter((a) => a !== '--dry-run')
    if (files.length !== 1) throw new Refused('usage: npm run admin -- import FILE [--dry-run]', 2)
    const text = await fs.readFile(files[0], 'utf8').catch((err: Error) => Promise.reject(new Refused(`Cannot read ${files[0]}: ${err.message}`, 2)))
    const result = await withDatabase(async (db, clock, config) => {
      try {
        return await configurationOn(db, clock, config).import(CONSOLE, text, { dryRun })
      } catch (err) {
        const text = refusalText(err)
        if (text !== null) throw new Refused(`${files[0]}: ${text.split('\n').join(`\n${files[0]}: `)}`)
        throw err
      }
    })
    io.stdout.write(importReport(result))
    return 0
  },
}

COMMANDS.export = {
  usage: 'export INSTALLATION_ID [FILE]',
  summary: "write the installation's configuration as YAML to FILE, or to stdout",
  async run(args, io) {
    const id = Number(args[0])
    if (args.length < 1 || args.length > 2 || !Number.isInteger(id) || id < 1) throw new Refused('usage: npm run admin -- export INSTALLATION_ID [FILE]', 2)
    const yaml = await withDatabase(async (db, clock, config) => {
      const service = configurationOn(db, clock, config)
      try {
        return service.toYaml(await service.export(CONSOLE, id))
      } catch (err) {
        const text = refusalText(err)
        if (text !== null) throw new Refused(`Installation ${id}: ${text}`)
        throw err
      }
    })
    if (args[1]) {
      await fs.writeFile(args[1], yaml)
      io.stdout.write(`Wrote installation ${id} to ${args[1]}.\n`)
    } else io.stdout.write(yaml)
    return 0
  },
}

/** Run the command of `argv` (the arguments after the script); answers the exit code. */
export async function main(argv: string[], io: Io = process): Promise<number> {
  const [name, ...args] = argv
  const command = name ? COMMANDS[name] : undefined
  if (!command) {
    const list = Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(28)}${c.summary}`).join('\n')
    io.stderr.write(`${name ? `Unknown command ${name}.\n` : ''}usage: npm run admin -- <command>\n${list}\n`)
    return 2
  }
  try {
    return await command.run(args, io)
  } catch (err) {
    if (!(err instanceof Refused)) throw err
    io.stderr.write(`${err.message}\n`)
    return err.code
  }
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)))
