/**
 * `rein db migrate`: creates the session table in PostgreSQL ahead of time (for deployments
 * where workers may not create tables). Idempotent, and safe from several processes at once;
 * a worker does the same when it starts, so nothing here is needed where workers may create it.
 */
import { stringOption, UsageError, type Command, type Parsed } from '../command.js'
import { ExitCodes } from '../exit-codes.js'
import { queueModule } from '../queue-module.js'
import { println, type Io } from '../io.js'

export const db: Command = {
  name: 'db',
  summary: 'set up the PostgreSQL that sessions live in (rein db migrate)',
  usage: 'rein db migrate [--postgres <url>] [--schema <name>] [--table <name>]',
  help: `
migrate  creates the session table (and its schema) when missing; says when it was already
         there. Run it as a user allowed to create tables; workers then need only SELECT and
         INSERT on it.

Options:
  --postgres <url>   postgres://user:password@host:port/db (default: REIN_DATABASE_URL)
  --schema <name>    default public
  --table <name>     default rein_session_entries`,
  options: {
    postgres: { type: 'string' },
    schema: { type: 'string' },
    table: { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  async run(args, io) {
    const [action] = args.positionals
    if (action !== 'migrate') throw new UsageError(`rein db: unknown action "${action}"; usage: ${db.usage}`)
    const connectionString = postgresUrl(args, io, 'db migrate')
    const { migrate, postgresTarget } = await queueModule()
    const schema = stringOption(args, 'schema')
    const table = stringOption(args, 'table')
    const result = await migrate({ connectionString, ...(schema ? { schema } : {}), ...(table ? { table } : {}) })
    println(io.stdout, `${result.table} at ${postgresTarget(connectionString)}: ${result.created ? 'created' : 'already there'}`)
    return ExitCodes.OK
  },
}

/** The PostgreSQL URL from `--postgres` or REIN_DATABASE_URL; a usage error naming both when neither is set. */
export function postgresUrl(args: Parsed, io: Io, command: string): string {
  const url = stringOption(args, 'postgres') ?? io.env.REIN_DATABASE_URL
  if (!url) throw new UsageError(`rein ${command}: no PostgreSQL to use: pass --postgres postgres://user:password@host:5432/db or set REIN_DATABASE_URL`)
  return url
}
