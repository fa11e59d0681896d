import type { HTTPRouteRule } from '@fleet-gateway/api-types';

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
const AFD_TIMEOUT = { min: 16, max: 240 } as const;

/** A Gateway API (GEP-2257) duration such as "1m30s", in milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  if (!/^([0-9]{1,5}(ms|h|m|s)){1,4}$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/([0-9]{1,5})(ms|h|m|s)/g)) {
    total += Number(amount) * (UNIT_MS[unit ?? ''] ?? 0);
  }
  return total;
}

/**
 * AFD has one origin response timeout per profile (16..240 s), taken from the Gateway annotation. A rule timeout
 * is honoured only when it asks for exactly that; anything else cannot be expressed per route and drops the rule.
 * "0s" means "as long as possible" in Gateway API, which is AFD's 240 s. An unknown profile timeout (its annotation
 * is invalid, so the Gateway is not accepted) is not replaced by the default: only the range is checked.
 */
export function timeoutProblem(rule: HTTPRouteRule, profileTimeoutSeconds: number | undefined): string | undefined {
  for (const [field, text] of Object.entries(rule.timeouts ?? {})) {
    if (text === undefined) continue;
    const ms = parseDuration(text);
    if (ms === undefined) return `timeouts.${field} ${text} is not a duration`;
    const seconds = ms === 0 ? AFD_TIMEOUT.max : ms / 1000;
    if (!Number.isInteger(seconds) || seconds < AFD_TIMEOUT.min || seconds > AFD_TIMEOUT.max) {
      return `timeouts.${field} ${text} is outside AFD's range of ${AFD_TIMEOUT.min}s to ${AFD_TIMEOUT.max}s in whole seconds`;
    }
    if (profileTimeoutSeconds !== undefined && seconds !== profileTimeoutSeconds) {
      return (
        `timeouts.${field} ${text} differs from the Gateway's origin response timeout of ${profileTimeoutSeconds}s ` +
        '(AFD has one per profile; set networking.fleet.azure.com/afd-origin-response-timeout-seconds on the Gateway)'
      );
    }
  }
  return undefined;
}
