import { globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { Manifest } from '@fleet-gateway/local-system';
import { echoDeploymentsFor } from './echo-deployments.js';

const IMAGE = 'fgwe2eabc123.azurecr.io/echo-backend:e2e-abc123';
const manifests = (yaml: string) => parseAllDocuments(yaml).map((d) => d.toJS() as Manifest);
const TWO_SERVICES = manifests(`
apiVersion: v1
kind: Namespace
metadata: { name: e2e-two }
---
apiVersion: v1
kind: Service
metadata: { name: blue, namespace: e2e-two }
spec: { type: LoadBalancer, selector: { app: blue, tier: web }, ports: [{ port: 80, targetPort: 8080 }] }
---
apiVersion: v1
kind: Service
metadata: { name: green, namespace: e2e-two }
spec: { selector: { app: green }, ports: [{ port: 80 }] }
---
apiVersion: networking.fleet.azure.com/v1beta1
kind: ServiceExport
metadata: { name: blue, namespace: e2e-two }
`);

type Deployment = {
  kind: string;
  metadata: { name: string; namespace: string };
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: { containers: { image: string; env: { name: string; value: string }[]; ports: { containerPort: number }[] }[] };
    };
  };
};

describe('echoDeploymentsFor', () => {
  it('gives each Service a Deployment in its namespace selecting exactly its labels, on its targetPort, naming the member', () => {
    const deployments = echoDeploymentsFor(TWO_SERVICES, 'member-2', IMAGE) as unknown as Deployment[];
    expect(deployments.map((d) => [d.kind, d.metadata.namespace, d.metadata.name])).toEqual([
      ['Deployment', 'e2e-two', 'echo-blue'],
      ['Deployment', 'e2e-two', 'echo-green'],
    ]);
    expect(deployments.map((d) => [d.spec.selector.matchLabels, d.spec.template.metadata.labels])).toEqual([
      [
        { app: 'blue', tier: 'web' },
        { app: 'blue', tier: 'web' },
      ],
      [{ app: 'green' }, { app: 'green' }],
    ]);
    const containers = deployments.map((d) => d.spec.template.spec.containers[0]);
    expect(containers.map((c) => [c?.image, c?.ports[0]?.containerPort, c?.env])).toEqual([
      [
        IMAGE,
        8080,
        [
          { name: 'ECHO_CLUSTER', value: 'member-2' },
          { name: 'ECHO_PORT', value: '8080' },
        ],
      ],
      // No targetPort: Kubernetes targets the port itself.
      [
        IMAGE,
        80,
        [
          { name: 'ECHO_CLUSTER', value: 'member-2' },
          { name: 'ECHO_PORT', value: '80' },
        ],
      ],
    ]);
  });

  it('gives nothing for manifests without a Service', () => {
    expect(
      echoDeploymentsFor(
        TWO_SERVICES.filter((m) => m.kind !== 'Service'),
        'member-1',
        IMAGE,
      ),
    ).toEqual([]);
  });

  it('refuses a Service no pod could back, naming the field and the value', () => {
    expect(() =>
      echoDeploymentsFor(manifests('apiVersion: v1\nkind: Service\nmetadata: { name: x, namespace: n }\nspec: { ports: [{ port: 80 }] }\n'), 'member-1', IMAGE),
    ).toThrow('Service n/x has spec.selector undefined; expected labels for its echo pods');
    expect(() =>
      echoDeploymentsFor(
        manifests(
          'apiVersion: v1\nkind: Service\nmetadata: { name: x, namespace: n }\nspec: { selector: { app: x }, ports: [{ port: 80, targetPort: http }] }\n',
        ),
        'member-1',
        IMAGE,
      ),
    ).toThrow('Service n/x has spec.ports[0].targetPort "http"; expected a port number');
  });

  it('backs every Service of every scenario’s member manifests (each has a selector and a numeric port)', () => {
    const scenarios = new URL('../scenarios/', import.meta.url);
    const files = globSync('*/member*.yaml', { cwd: scenarios.pathname });
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const file of files) {
      const parsed = manifests(readFileSync(new URL(file, scenarios), 'utf8'));
      expect(echoDeploymentsFor(parsed, 'member-1', IMAGE).length, file).toBe(parsed.filter((m) => m.kind === 'Service').length);
    }
  });
});
