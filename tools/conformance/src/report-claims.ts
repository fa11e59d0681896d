/** The parts of an upstream ConformanceReport (conformance/apis/v1) that say what an implementation claims. */
export interface ConformanceReport {
  gatewayAPIVersion: string;
  gatewayAPIChannel: string;
  implementation: { project: string; version: string };
  profiles: ProfileReport[];
}

interface Statistics {
  Passed: number;
  Failed: number;
  Skipped: number;
}

interface ProfileReport {
  name: string;
  core: { result: string; statistics: Statistics; skippedTests?: string[]; failedTests?: string[] };
  extended?: {
    result: string;
    statistics: Statistics;
    skippedTests?: string[];
    failedTests?: string[];
    supportedFeatures?: string[];
    unsupportedFeatures?: string[];
  };
}

/** Everything a report claims except when it was made: the release, and per profile the results and features. */
export function reportClaims(report: ConformanceReport): unknown {
  return {
    gatewayAPIVersion: report.gatewayAPIVersion,
    gatewayAPIChannel: report.gatewayAPIChannel,
    project: report.implementation.project,
    profiles: report.profiles.map((p) => ({ name: p.name, core: p.core, extended: p.extended ?? null })),
  };
}

/** The tests that failed in any profile of the report. */
export const failedTests = (report: ConformanceReport): string[] =>
  report.profiles.flatMap((p) => [...(p.core.failedTests ?? []), ...(p.extended?.failedTests ?? [])]);
