import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GlobalGateway } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { planFrontDoor } from './plan-front-door.js';
import { isWritable, type PlanOptions } from './plan-types.js';
import { buildGateway, type GatewayFixture } from '../testing/gateway-builder.js';

/**
 * testdata/plan-<case>.in.yaml -> .out.yaml: a GlobalGateway (`model`, as libs/model emits it, or a compact
 * `fixture`) and optional plan options in; the plan out. UPDATE_GOLDEN=1 rewrites the expected files.
 */
const testdata = join(import.meta.dirname, '..', '..', 'testdata');
const update = process.env['UPDATE_GOLDEN'] === '1';
const cases = readdirSync(testdata)
  .filter((f) => f.startsWith('plan-') && f.endsWith('.in.yaml'))
  .map((f) => f.slice(0, -'.in.yaml'.length))
  .sort();

interface GoldenInput {
  readonly options?: Partial<PlanOptions>;
  readonly model?: GlobalGateway;
  readonly fixture?: GatewayFixture;
}

function planCase(name: string): string {
  const input = parse(readFileSync(join(testdata, `${name}.in.yaml`), 'utf8')) as GoldenInput;
  const model = input.model ?? buildGateway(input.fixture as GatewayFixture);
  const plan = planFrontDoor(model, { hubIdentity: 'subscription/00000000-0000-4000-8000-000000000001/hub', ...input.options });
  return stringify({ writable: isWritable(plan), ...plan }, { lineWidth: 0, aliasDuplicateObjects: false });
}

describe('plan golden files', () => {
  it('has positive and negative cases', () => {
    expect(cases.filter((c) => /invalid|not-programmable/.test(c)).length).toBeGreaterThan(0);
    expect(cases.filter((c) => !/invalid|not-programmable/.test(c)).length).toBeGreaterThan(0);
  });

  it.each(cases)('%s', (name) => {
    const actual = planCase(name);
    const outPath = join(testdata, `${name}.out.yaml`);
    if (update) writeFileSync(outPath, actual);
    expect(actual).toBe(readFileSync(outPath, 'utf8'));
  });
});
