/**
 * The plugin's configuration, checked by cordis when the plugin is added (a missing `root`
 * fails the start). Every limit here is a size cap that keeps one result small enough for a
 * model; each tool says in its result when a cap cut something off.
 */
import { Schema } from 'cordis'

export interface Config {
  /** The folder every path is confined to. Relative roots resolve against the process cwd. */
  root: string
  /** read_file: at most this many bytes per call. */
  maxReadBytes: number
  /** read_file: the default (and largest) `limit`, in lines. */
  maxReadLines: number
  /** list_dir and glob: at most this many entries per call. */
  maxEntries: number
  /** grep: the default `maxResults`; the largest allowed is `maxEntries`. */
  grepResults: number
  /** grep: files larger than this are skipped (and counted in the result). */
  grepMaxFileBytes: number
  /** edit_file: larger files are refused (the whole file is held in memory while it is edited). */
  maxEditBytes: number
  /** glob and grep: patterns of paths never walked or returned. */
  ignore: string[]
}

/** What a user writes: `root`, and any limit they want to change. */
export type ConfigInput = { root: string } & Partial<Omit<Config, 'root'>>

export const Config: Schema<ConfigInput, Config> = Schema.object({
  root: Schema.string().required().description('The folder the file tools are confined to.'),
  maxReadBytes: Schema.natural().min(1).default(40_000).description('read_file: largest window in bytes.'),
  maxReadLines: Schema.natural().min(1).default(2000).description('read_file: default and largest limit in lines.'),
  maxEntries: Schema.natural().min(1).default(1000).description('list_dir and glob: largest number of entries.'),
  grepResults: Schema.natural().min(1).default(100).description('grep: default maxResults.'),
  grepMaxFileBytes: Schema.natural().min(1).default(5_000_000).description('grep: larger files are skipped.'),
  maxEditBytes: Schema.natural().min(1).default(5_000_000).description('edit_file: larger files are refused.'),
  ignore: Schema.array(Schema.string()).default(['**/.git/**', '**/node_modules/**'])
    .description('glob and grep: paths never walked or returned.'),
}) as unknown as Schema<ConfigInput, Config>
