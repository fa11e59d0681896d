import { expect, it } from 'vitest';
import { resolveGateway } from '../resolve/resolve-gateway.js';
import { benchmarkInputs } from './bench-inputs.js';

it('the benchmark Gateway resolves to 160 routes and 160 Private Link origins over 40 clusters', () => {
  const { model, verdicts } = resolveGateway(benchmarkInputs());
  expect(verdicts.gateway?.conditions[0]).toMatchObject({ status: 'True', reason: 'Accepted' });
  expect(model?.routes).toHaveLength(160);
  const origins = model?.backends.flatMap((b) => b.origins) ?? [];
  expect(origins).toHaveLength(160);
  expect(new Set(origins.map((o) => o.cluster)).size).toBe(40);
  expect(model?.backends.every((b) => b.connectivity === 'private-link')).toBe(true);
  expect(verdicts.routes.every((r) => r.parents.every((p) => p.conditions.every((c) => c.status === 'True')))).toBe(true);
});
