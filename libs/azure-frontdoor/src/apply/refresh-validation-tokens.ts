import type { AFDDomain, CdnManagementClient } from '@azure/arm-cdn';
import type { AfdRef, FrontDoorScope } from '../plan/afd-refs.js';
import { classifyArmError, describeFailure, type ArmFailure, type ArmRequestCount } from '@fleet-gateway/arm-runtime';
import { sendWrite } from './arm-write.js';
import { operationDeadline } from './operation-deadline.js';
import { followOperations, type FollowedWrite, type FollowSettings } from './operation-follower.js';
import { domainsNeedingNewToken } from '../observe/domain-validation.js';
import type { Observed } from '../observe/observe.js';

export interface TokenRefresh {
  /** The domains as ARM reports them after the refresh, by lower-cased name. */
  readonly refreshed: ReadonlyMap<string, AFDDomain>;
  readonly writes: number;
  /** Why a refresh failed, for the pending messages (the old token stays what status shows). */
  readonly failures: readonly string[];
}

export interface TokenRefreshOptions extends FollowSettings {
  readonly abortSignal?: AbortSignal;
  readonly requests?: ArmRequestCount;
  /** How long the refreshes' operations are followed (default 10 min). */
  readonly operationDeadlineMs?: number;
}

/**
 * Asks AFD for a new validation token (refreshValidationToken) for every domain of the plan whose token has expired
 * or expires within a day, follows the refreshes' operations together, then reads the refreshed domains again (one
 * list for several) so that status shows the token the operator must publish.
 */
export async function refreshValidationTokens(
  cdn: CdnManagementClient,
  scope: FrontDoorScope,
  profile: string,
  domains: readonly Observed<AFDDomain>[],
  nowMs: number,
  options: TokenRefreshOptions,
): Promise<TokenRefresh> {
  const rg = scope.resourceGroup;
  const refreshed = new Map<string, AFDDomain>();
  const failures: string[] = [];
  const names = domainsNeedingNewToken(domains, nowMs);
  if (names.length === 0) return { refreshed, writes: 0, failures };
  const deadline = operationDeadline(options.abortSignal, options.operationDeadlineMs);
  const call = { abortSignal: deadline.signal, ...(options.requests ? { requests: options.requests } : {}) };
  const failed = (name: string, failure: ArmFailure) =>
    failures.push(`refreshing the validation token of custom domain ${name} failed: ${describeFailure(failure)}`);
  const sent: { name: string; write: FollowedWrite }[] = [];
  for (const name of names) {
    const ref: AfdRef = { kind: 'customDomain', profile, customDomain: name };
    const sentAt = (options.operationClock ?? Date).now();
    try {
      const answer = await sendWrite(cdn, (c) => c.afdCustomDomains.beginRefreshValidationToken(rg, profile, name), call);
      sent.push({ name, write: { ref, action: 'refresh', answer, sentAt } });
    } catch (error) {
      failed(name, classifyArmError(error));
    }
  }
  const followed = await followOperations(
    cdn,
    rg,
    sent.map((s) => s.write),
    { ...options, signal: deadline.signal },
  );
  const done: string[] = [];
  sent.forEach(({ name }, i) => {
    const result = followed[i]!;
    if (result.outcome === 'done') done.push(name);
    else if (result.outcome === 'failed') failed(name, result.failure);
    else
      failures.push(`refreshing the validation token of custom domain ${name} had not finished within ${deadline.deadlineMs / 1000} s; it is observed again`);
  });
  const read = { abortSignal: deadline.signal, ...(options.requests ? { onResponse: options.requests.onResponse } : {}) };
  try {
    if (done.length === 1) refreshed.set(done[0]!.toLowerCase(), await cdn.afdCustomDomains.get(rg, profile, done[0]!, read));
    else if (done.length > 1) {
      const wanted = new Set(done.map((name) => name.toLowerCase()));
      for await (const domain of cdn.afdCustomDomains.listByProfile(rg, profile, read)) {
        const name = (domain.name ?? '').toLowerCase();
        if (wanted.has(name)) refreshed.set(name, domain);
      }
    }
  } catch (error) {
    for (const name of done) failed(name, classifyArmError(error));
  }
  return { refreshed, writes: names.length, failures };
}
