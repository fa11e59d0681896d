import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseMemberFlags } from './flags.js';

/**
 * The container args of the member chart's golden rendering (tools/charts-test proves it equal to `helm template`'s
 * output), read by this agent's own flag parser: what the chart passes must be what the agent accepts.
 */
function chartArgs(golden: string): string[] {
  const text = readFileSync(path.resolve(import.meta.dirname, '../../../tools/charts-test/golden', golden), 'utf8');
  const deployment = parseAllDocuments(text)
    .map((document) => document.toJS() as { kind?: string; spec?: { template: { spec: { containers: { args?: string[] }[] } } } })
    .find((manifest) => manifest?.kind === 'Deployment');
  return deployment?.spec?.template.spec.containers[0]?.args ?? [];
}

describe("the member chart's container args, read by the agent's flag parser", () => {
  it('accepts the args with a hub kubeconfig Secret', () => {
    expect(parseMemberFlags(chartArgs('member-discovery.default.yaml'))).toMatchObject({ ok: true, value: { memberClusterName: 'member-1', leaderElectionNamespace: 'fleet-system' } });
  });
});
