/**
 * Cancellation across workers. A canceller first leaves a marker on the job (kept a day), then
 * publishes the job id on the queue's cancel channel; every worker listens there and aborts
 * the run of that job if it has it. A worker registers a run before it reads the marker, so a
 * cancellation is never missed: either the marker is there when the worker reads it, or the
 * message is published after the run was registered. A message published while a worker is
 * cut off from Redis is lost to it; the marker is read again whenever the job starts again.
 */
import type { Redis } from 'ioredis'
import type { QueueKeys } from './options.js'
import { openConnection } from './redis.js'

const MARKER_TTL_SECONDS = 24 * 60 * 60

/** Why a cancelled run's signal was aborted. */
export const CANCELLED = 'cancelled (rein cancel)'

/** A worker's end of the cancel channel. */
export class CancelListener {
  private readonly runs = new Map<string, AbortController>()

  private constructor(private readonly keys: QueueKeys, private readonly subscriber: Redis, private readonly commands: Redis) {
    subscriber.on('message', (channel: string, jobId: string) => {
      if (channel === keys.cancelChannel) this.runs.get(jobId)?.abort(CANCELLED)
    })
  }

  /** Subscribes to the cancel channel of `keys` on Redis at `url`. */
  static async open(url: string, keys: QueueKeys): Promise<CancelListener> {
    const subscriber = openConnection(url)
    const commands = openConnection(url)
    try {
      await subscriber.subscribe(keys.cancelChannel)
    } catch (error) {
      subscriber.disconnect()
      commands.disconnect()
      throw error
    }
    return new CancelListener(keys, subscriber, commands)
  }

  /** Aborts `controller` when job `jobId` is cancelled; returns the unregister function. */
  track(jobId: string, controller: AbortController): () => void {
    this.runs.set(jobId, controller)
    return () => {
      if (this.runs.get(jobId) === controller) this.runs.delete(jobId)
    }
  }

  /** Whether job `jobId` was cancelled before (read after `track`). */
  async requested(jobId: string): Promise<boolean> {
    return (await this.commands.exists(this.keys.cancelMarker(jobId))) === 1
  }

  async close(): Promise<void> {
    this.runs.clear()
    await Promise.allSettled([this.subscriber.quit(), this.commands.quit()])
  }
}

/** Marks job `jobId` cancelled and tells every worker; resolves with how many workers heard it. */
export async function requestCancel(redis: Redis, keys: QueueKeys, jobId: string): Promise<number> {
  await redis.set(keys.cancelMarker(jobId), '1', 'EX', MARKER_TTL_SECONDS)
  return redis.publish(keys.cancelChannel, jobId)
}
