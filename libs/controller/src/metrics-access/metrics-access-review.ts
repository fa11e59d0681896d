import type { KubeClient } from '../kube/kube-client.js';
import type { Logger } from '../observability/logger.js';
import { AccessDecisionCache, tokenCacheKey } from './access-decision-cache.js';
import { bearerTokenOf } from './bearer-token.js';

/** What to answer a request for /metrics: serve it, or refuse it with this status and a one-line body. */
export type MetricsAccess = { readonly allowed: true } | { readonly allowed: false; readonly status: 401 | 403 | 500; readonly message: string };

export interface MetricsAccessReviewOptions {
  /** The agent's client of the cluster whose ServiceAccounts scrape it (its own): it creates the reviews. */
  readonly client: KubeClient;
  readonly logger: Logger;
}

/** Bound on each review call, its retries included (controller-runtime's TokenAccessReviewTimeout). */
const REVIEW_TIMEOUT_MS = 10_000;
/** How many tokens' answers are kept at most: a flood of distinct tokens evicts old answers, it does not grow the agent. */
const MAX_CACHED_TOKENS = 1_000;

type CachedOutcome = 'allowed' | 'denied' | 'unauthenticated';

/**
 * controller-runtime's filters.WithAuthenticationAndAuthorization: a token reviewed once stays authenticated (or not)
 * for 1 minute, an allowed SubjectAccessReview holds 5 minutes and a denied one 30 seconds. Here one answer is kept
 * per token, so an allowed token is reviewed again after the shorter of its two times (1 minute): a revoked token or
 * a removed binding stops working within a minute.
 */
const TTLS_MS: Record<CachedOutcome, number> = { allowed: 60_000, denied: 30_000, unauthenticated: 60_000 };

interface UserInfo {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

interface TokenReview {
  readonly status?: { readonly authenticated?: boolean; readonly user?: UserInfo; readonly error?: string };
}

interface SubjectAccessReview {
  readonly status?: { readonly allowed?: boolean; readonly reason?: string };
}

const UNAUTHENTICATED: MetricsAccess = { allowed: false, status: 401, message: 'Unauthorized: a valid bearer token is required' };
/** The API server unreachable, or refusing the agent's review (its RBAC lacks the review rules): the log says which. */
const REVIEW_FAILED = "metrics access could not be checked with the API server (the agent's log says why)";
const NO_TOKEN: MetricsAccess = { allowed: false, status: 401, message: 'Unauthorized: send Authorization: Bearer <ServiceAccount token>' };

/**
 * Who may read /metrics, decided by the API server as controller-runtime's metrics filter decides it: the bearer
 * token goes into a TokenReview (authentication.k8s.io/v1), and the user it names into a SubjectAccessReview
 * (authorization.k8s.io/v1) for the non-resource URL and the request's verb (`get` for a scrape). No token or a token
 * the API server does not authenticate: 401; not allowed: 403; the API server not answering: 500, never cached, so
 * the next scrape asks again. Answers are cached by the token's hash (never the token), and concurrent requests with
 * the same token share one review.
 */
export class MetricsAccessReview {
  private readonly cache = new AccessDecisionCache<MetricsAccess>(MAX_CACHED_TOKENS);
  private readonly inFlight = new Map<string, Promise<MetricsAccess>>();

  constructor(private readonly options: MetricsAccessReviewOptions) {}

  /** The answer for a request with this Authorization header, method and URL path. */
  async decide(authorization: string | undefined, method: string, path: string): Promise<MetricsAccess> {
    const token = bearerTokenOf(authorization);
    if (token === undefined) return NO_TOKEN;
    const verb = method.toLowerCase();
    const key = tokenCacheKey(token, verb, path);
    const cached = this.cache.get(key, Date.now());
    if (cached) return cached;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.review(token, verb, path, key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async review(token: string, verb: string, path: string, key: string): Promise<MetricsAccess> {
    let outcome: CachedOutcome;
    let access: MetricsAccess;
    try {
      const user = await this.authenticate(token);
      if (!user) {
        [outcome, access] = ['unauthenticated', UNAUTHENTICATED];
      } else if (await this.authorize(user, verb, path)) {
        [outcome, access] = ['allowed', { allowed: true }];
      } else {
        const message = `Forbidden: user "${user.username ?? ''}" may not ${verb} ${path}`;
        [outcome, access] = ['denied', { allowed: false, status: 403, message }];
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.options.logger.error('metrics access could not be reviewed with the API server', { error: why });
      return { allowed: false, status: 500, message: REVIEW_FAILED };
    }
    this.cache.set(key, access, TTLS_MS[outcome], Date.now());
    return access;
  }

  private async authenticate(token: string): Promise<UserInfo | undefined> {
    const review = await this.options.client.request<TokenReview>('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
      signal: AbortSignal.timeout(REVIEW_TIMEOUT_MS),
    });
    return review.status?.authenticated === true && review.status.user ? review.status.user : undefined;
  }

  private async authorize(user: UserInfo, verb: string, path: string): Promise<boolean> {
    const review = await this.options.client.request<SubjectAccessReview>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: user.username,
          ...(user.uid ? { uid: user.uid } : {}),
          ...(user.groups ? { groups: user.groups } : {}),
          ...(user.extra ? { extra: user.extra } : {}),
          nonResourceAttributes: { path, verb },
        },
      },
      signal: AbortSignal.timeout(REVIEW_TIMEOUT_MS),
    });
    return review.status?.allowed === true;
  }
}
