import { backupDataDir, restoreDataDir } from '../server/db/backup.ts'

/**
 * Backup and restore of the embedded database (docs/operations.md "Backup and restore"):
 *   node scripts/backup.ts backup  <file.tar.gz> [DATA_DIR]   # the server must be stopped
 *   node scripts/backup.ts restore <file.tar.gz> [DATA_DIR]   # into an empty DATA_DIR
 * DATA_DIR defaults to the DATA_DIR variable, then ./data. Exit 0 on success, 1 with a message otherwise.
 */
const [command, file, dir] = process.argv.slice(2)
const dataDir = dir ?? process.env.DATA_DIR ?? './data'
try {
  if (command === 'backup' && file) {
    const { bytes } = await backupDataDir(dataDir, file)
    console.log(`Backed up ${dataDir} to ${file} (${(bytes / 1e6).toFixed(1)} MB).`)
  } else if (command === 'restore' && file) {
    await restoreDataDir(file, dataDir)
    console.log(`Restored ${file} into ${dataDir}.`)
  } else {
    console.error('usage: node scripts/backup.ts backup|restore <file.tar.gz> [DATA_DIR]')
    process.exit(1)
  }
} catch (err) {
  console.error((err as Error).message)
  process.exit(1)
}
