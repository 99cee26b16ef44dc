// GET /ext/health: whether the node is healthy and ready.
import { NodeResponseError, NodeUnreachableError } from '../errors.js';
import { type CallOptions, type FetchLike, getJson, g } from '../rpc.js';
import { type HealthReport } from './types.js';
import { joinUrl } from './checks.js';

export class HealthApi {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number | undefined,
    private readonly fetchFn: FetchLike | undefined,
  ) {}

  private async get(path: string, opts?: CallOptions): Promise<HealthReport> {
    const url = joinUrl(this.baseUrl, path);
    const o: CallOptions & { fetch?: FetchLike } = { ...opts };
    if (o.timeoutMs === undefined && this.timeoutMs !== undefined) o.timeoutMs = this.timeoutMs;
    if (this.fetchFn) o.fetch = this.fetchFn;
    const { status, body } = await getJson(url, o);
    if (status !== 200 && status !== 503) throw new NodeUnreachableError(url, `HTTP ${status}`);
    const r = g.object({ healthy: g.boolean, checks: g.optional(g.record) })(body, `GET ${path}`);
    if (r.healthy !== (status === 200)) {
      throw new NodeResponseError(`GET ${path}: HTTP ${status} contradicts healthy=${r.healthy}`);
    }
    return { healthy: r.healthy, status, checks: r.checks ?? {} };
  }

  /** GET /ext/health: every check. */
  health(opts?: CallOptions): Promise<HealthReport> {
    return this.get('/ext/health', opts);
  }

  /** GET /ext/health/readiness: true once the node has finished starting (bootstrapped). */
  readiness(opts?: CallOptions): Promise<HealthReport> {
    return this.get('/ext/health/readiness', opts);
  }
}
