/**
 * The live stream's concurrent-stream limit across processes (docs/api-contract.md "Live stream", migration 0022): each
 * open stream holds a row of `stream_leases`. Opening takes a lease only while the key's live leases are below the
 * plan's limit (acquire_stream_lease, serialized per key on every process); this process renews all its leases in one
 * statement every STREAM_LEASE_RENEW_MS; closing deletes the lease at once; the leases of a process that died stop
 * counting STREAM_LEASE_TTL_MS after its last renewal.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type postgres from "postgres";
import { STREAM_LEASE_RENEW_MS, STREAM_LEASE_TTL_MS } from "../contract/stream";
import { errorFields, log } from "../log";

export interface StreamLease {
  id: number;
  keyId: string;
}

export interface LeaseOptions {
  ttlMs?: number;
  renewMs?: number;
  /** Called with the leases that were found expired at a renewal (the process stalled or lost the database too long). */
  onLost?: (ids: number[]) => void;
}

export class StreamLeases {
  /** This process (one pool): names its leases' rows, for renewal and for operators. */
  readonly instanceId = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly held = new Set<number>();
  /** Leases whose delete failed: the next renewal deletes them. */
  private readonly gone = new Set<number>();
  private readonly ttlMs: number;
  private readonly renewMs: number;
  private renewer: NodeJS.Timeout | null = null;
  private renewing = false;

  constructor(
    private readonly sql: postgres.Sql,
    private readonly options: LeaseOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? STREAM_LEASE_TTL_MS;
    this.renewMs = options.renewMs ?? STREAM_LEASE_RENEW_MS;
  }

  /** Leases this process holds. */
  get size(): number {
    return this.held.size;
  }

  /** Takes one of the key's `limit` stream slots across every process; null when they are all held. */
  async acquire(
    caller: { keyId: string; accountId: string },
    limit: number,
    requestId: string,
  ): Promise<StreamLease | null> {
    const [row] = await this.sql<{ id: string | null }[]>`
      select acquire_stream_lease(${caller.keyId}, ${caller.accountId}::uuid, ${this.instanceId}, ${requestId},
        ${limit}::int, ${this.ttlMs}::int)::text as id`;
    if (row?.id == null) return null;
    const lease = { id: Number(row.id), keyId: caller.keyId };
    this.held.add(lease.id);
    this.startRenewing();
    return lease;
  }

  /** Frees the lease at once (best effort: a failed delete is retried with the next renewal; it expires anyway). */
  release(lease: StreamLease): Promise<void> {
    if (!this.held.delete(lease.id)) return Promise.resolve();
    return this.sql`delete from stream_leases where id = ${lease.id}`.then(
      () => undefined,
      (err) => {
        log.warn("stream lease delete failed", { lease: lease.id, ...errorFields(err) });
        this.gone.add(lease.id);
      },
    );
  }

  private startRenewing(): void {
    if (this.renewer) return;
    this.renewer = setInterval(() => void this.renew(), this.renewMs);
    this.renewer.unref();
  }

  /**
   * One statement: extends this process's live leases, deletes the ones whose delete failed and every lease expired for
   * a minute (any process's), and answers the ids it renewed. A held lease not renewed had expired: `onLost`.
   */
  async renew(): Promise<void> {
    if (this.renewing) return;
    const ids = [...this.held];
    const gone = [...this.gone];
    if (!ids.length && !gone.length) return;
    this.renewing = true;
    try {
      const rows = await this.sql<{ id: string }[]>`
        with renewed as (
          update stream_leases set renewed_at = clock_timestamp(),
            expires_at = clock_timestamp() + make_interval(secs => ${this.ttlMs / 1000}::float8)
          where id = any(${ids}::bigint[]) and instance_id = ${this.instanceId} and expires_at > clock_timestamp()
          returning id
        ), dropped as (
          delete from stream_leases
          where (id = any(${gone}::bigint[]) or expires_at < clock_timestamp() - interval '1 minute')
            and not (id = any(${ids}::bigint[]))
        )
        select id::text from renewed`;
      for (const id of gone) this.gone.delete(id);
      const renewed = new Set(rows.map((r) => Number(r.id)));
      const lost = ids.filter((id) => !renewed.has(id) && this.held.has(id));
      if (lost.length) {
        for (const id of lost) this.held.delete(id);
        log.warn("stream leases expired before renewal", { leases: lost.length, instance: this.instanceId });
        this.options.onLost?.(lost);
      }
    } catch (err) {
      log.error("stream lease renewal failed", errorFields(err));
    } finally {
      this.renewing = false;
    }
  }

  /** Stops renewing and deletes every lease this process holds in one statement (the process is shutting down). */
  close(): Promise<void> {
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = null;
    const ids = [...this.held, ...this.gone];
    this.held.clear();
    this.gone.clear();
    if (!ids.length) return Promise.resolve();
    return this.sql`delete from stream_leases where id = any(${ids}::bigint[])`.then(
      () => undefined,
      (err) => log.warn("stream lease delete failed", { leases: ids.length, ...errorFields(err) }),
    );
  }
}
