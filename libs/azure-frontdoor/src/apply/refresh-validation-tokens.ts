import type { AFDDomain, CdnManagementClient } from '@azure/arm-cdn';
import type { FrontDoorScope } from '../plan/afd-refs.js';
import { classifyArmError, describeFailure } from '@fleet-gateway/arm-runtime';
import { domainsNeedingNewToken } from '../observe/domain-validation.js';
import type { Observed } from '../observe/observe.js';

export interface TokenRefresh {
  /** The domains as ARM reports them after the refresh, by lower-cased name. */
  readonly refreshed: ReadonlyMap<string, AFDDomain>;
  readonly writes: number;
  /** Why a refresh failed, for the pending messages (the old token stays what status shows). */
  readonly failures: readonly string[];
}

/**
 * Asks AFD for a new validation token (refreshValidationToken) for every domain of the plan whose token has expired
 * or expires within a day, then reads the domain again so that status shows the token the operator must publish.
 */
export async function refreshValidationTokens(
  cdn: CdnManagementClient,
  scope: FrontDoorScope,
  profile: string,
  domains: readonly Observed<AFDDomain>[],
  nowMs: number,
  lro: object,
): Promise<TokenRefresh> {
  const refreshed = new Map<string, AFDDomain>();
  const failures: string[] = [];
  const names = domainsNeedingNewToken(domains, nowMs);
  for (const name of names) {
    try {
      await cdn.afdCustomDomains.beginRefreshValidationTokenAndWait(scope.resourceGroup, profile, name, lro);
      refreshed.set(name.toLowerCase(), await cdn.afdCustomDomains.get(scope.resourceGroup, profile, name, lro));
    } catch (error) {
      failures.push(`refreshing the validation token of custom domain ${name} failed: ${describeFailure(classifyArmError(error))}`);
    }
  }
  return { refreshed, writes: names.length, failures };
}
