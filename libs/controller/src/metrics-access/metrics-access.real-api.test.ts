import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { Counter, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../kube/kube-client.js';
import { captureLogLines, logsFlushed } from '../test-support/log-capture.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import { kubeConfigAs } from '../test-support/real-api.js';
import { startHealthServer, type HealthServer } from '../observability/health-server.js';
import { createLogger, silentLogger } from '../observability/logger.js';
import { MetricsAccessReview } from './metrics-access-review.js';
import { selfSignedServingCertificate, type KeyPair } from './serving-certificate.js';

const NAMESPACE = 'monitoring';
/** The agent's own rules for reviewing scrapers: exactly what the charts grant it when metrics are secure. */
const REVIEWER_RULES = [
  { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
  { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
];

let dir: string;
let auditLog: string;
let hub: HubPlane;
let certificate: KeyPair;
let server: HealthServer;
let prometheusToken: string;
let intruderToken: string;

interface Scrape {
  readonly status: number;
  readonly body: string;
  readonly authenticate: string | undefined;
  readonly certificate: X509Certificate;
}

/** GET over HTTPS that trusts only the served self-signed certificate (so its name and address are checked too). */
function scrape(url: string, authorization?: string, ca = certificate.cert): Promise<Scrape> {
  return new Promise((resolve, reject) => {
    // A connection of its own each time: a resumed TLS session would not show the peer certificate.
    const outgoing = request(url, { ca, agent: false, headers: authorization === undefined ? {} : { authorization } }, (response) => {
      const { raw } = (response.socket as TLSSocket).getPeerCertificate();
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          authenticate: response.headers['www-authenticate'],
          certificate: new X509Certificate(raw),
        });
      });
    });
    outgoing.on('error', reject).end();
  });
}

/** The API server's own record of review requests (audit stage RequestReceived, written before it handles one). */
async function reviewsReceived(): Promise<{ tokenReviews: number; accessReviews: number }> {
  const events = (await readFile(auditLog, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { objectRef?: { resource?: string } });
  const count = (resource: string) => events.filter((e) => e.objectRef?.resource === resource).length;
  return { tokenReviews: count('tokenreviews'), accessReviews: count('subjectaccessreviews') };
}

async function tokenOf(serviceAccount: string): Promise<string> {
  const issued = await hub.client.create<{ status: { token: string } }>(`/api/v1/namespaces/${NAMESPACE}/serviceaccounts/${serviceAccount}/token`, {
    spec: { expirationSeconds: 3600 },
  });
  return issued.status.token;
}

const rbac = '/apis/rbac.authorization.k8s.io/v1';
async function bindClusterRole(name: string, rules: unknown[], serviceAccount: string): Promise<void> {
  await hub.client.create(`${rbac}/clusterroles`, { metadata: { name }, rules });
  await hub.client.create(`${rbac}/clusterrolebindings`, {
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace: NAMESPACE }],
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'metrics-access-'));
  auditLog = path.join(dir, 'audit.log');
  const policy = path.join(dir, 'audit-policy.yaml');
  await writeFile(
    policy,
    [
      'apiVersion: audit.k8s.io/v1',
      'kind: Policy',
      'omitStages: [ResponseStarted, ResponseComplete, Panic]',
      'rules:',
      '  - level: Metadata',
      '    resources:',
      '      - { group: authentication.k8s.io, resources: [tokenreviews] }',
      '      - { group: authorization.k8s.io, resources: [subjectaccessreviews] }',
      '  - level: None',
      '',
    ].join('\n'),
  );
  hub = await startHubPlane({
    namespaces: [NAMESPACE],
    // Blocking mode: an event is on disk before the API server goes on with the request, so counts are exact.
    apiServerArgs: [`--audit-policy-file=${policy}`, `--audit-log-path=${auditLog}`, '--audit-log-mode=blocking', '--audit-log-format=json'],
  });
  for (const name of ['agent', 'prometheus', 'intruder']) await hub.client.create(`/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, { metadata: { name } });
  await bindClusterRole('agent-metrics-auth', REVIEWER_RULES, 'agent');
  await bindClusterRole('agent-metrics-reader', [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }], 'prometheus');
  [prometheusToken, intruderToken] = await Promise.all([tokenOf('prometheus'), tokenOf('intruder')]);

  const registry = new Registry();
  new Counter({ name: 'widgets_reconciled_total', help: 'reconciles', registers: [registry] }).inc(3);
  const serving = selfSignedServingCertificate();
  certificate = serving.initial;
  // The agent reviews with its own identity and only the reviewer rules (the admin certificate impersonates it).
  const agentClient = new KubeClient(kubeConfigAs(hub.hub.kubeConfig(), `system:serviceaccount:${NAMESPACE}:agent`));
  const access = new MetricsAccessReview({ client: agentClient, logger: silentLogger() });
  server = await startHealthServer({ host: '127.0.0.1', port: 0, registry, probes: false, tls: serving, metricsAccess: (a, m, p) => access.decide(a, m, p) });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await hub?.plane.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('/metrics behind TokenReview and SubjectAccessReview (real kube-apiserver, the agent under only the reviewer rules)', () => {
  it('serves the metrics over HTTPS to a ServiceAccount bound to the metrics-reader role', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const allowed = await scrape(`${server.url}/metrics`, `Bearer ${prometheusToken}`);
    expect(allowed.status).toBe(200);
    expect(allowed.body).toContain('widgets_reconciled_total 3');
    expect(allowed.certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it('refuses a ServiceAccount without the binding with 403, naming the user', async () => {
    const denied = await scrape(`${server.url}/metrics`, `Bearer ${intruderToken}`);
    expect(denied.status).toBe(403);
    expect(denied.body).toBe(`Forbidden: user "system:serviceaccount:${NAMESPACE}:intruder" may not get /metrics\n`);
  });

  it('refuses no token and a token the API server does not know with 401, without the metrics', async () => {
    for (const authorization of [undefined, 'Basic cHJvbWV0aGV1czpwYXNz', `Bearer not-a-token-${'x'.repeat(40)}`]) {
      const refused = await scrape(`${server.url}/metrics`, authorization);
      expect(refused.status).toBe(401);
      expect(refused.authenticate).toBe('Bearer');
      expect(refused.body).not.toContain('widgets_reconciled_total');
    }
  });

  it('reviews a token once while its answer is cached: allowed, denied and unknown alike', async () => {
    const garbage = `Bearer garbage-${Date.now()}`;
    const fresh = await tokenOf('prometheus');
    const before = await reviewsReceived();
    expect((await scrape(`${server.url}/metrics`, `Bearer ${fresh}`)).status).toBe(200);
    expect((await scrape(`${server.url}/metrics`, garbage)).status).toBe(401);
    const afterFirst = await reviewsReceived();
    // One TokenReview per new token, one SubjectAccessReview for the one the API server authenticated.
    expect(afterFirst).toEqual({ tokenReviews: before.tokenReviews + 2, accessReviews: before.accessReviews + 1 });
    for (const authorization of [`Bearer ${fresh}`, garbage, `Bearer ${prometheusToken}`, `Bearer ${intruderToken}`])
      await scrape(`${server.url}/metrics`, authorization);
    expect(await reviewsReceived()).toEqual(afterFirst);
  });

  it('shares one review among concurrent scrapes with the same new token', async () => {
    const fresh = await tokenOf('prometheus');
    const before = await reviewsReceived();
    const results = await Promise.all(Array.from({ length: 5 }, () => scrape(`${server.url}/metrics`, `Bearer ${fresh}`)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await reviewsReceived()).toEqual({ tokenReviews: before.tokenReviews + 1, accessReviews: before.accessReviews + 1 });
  });

  it('answers 500 with one line, logs the failure without the token, and caches nothing when the API server cannot be reached', async () => {
    const { stream, lines } = captureLogLines();
    const gone = new KubeConfig();
    gone.loadFromOptions({
      clusters: [{ name: 'gone', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
      users: [{ name: 'agent' }],
      contexts: [{ name: 'gone', cluster: 'gone', user: 'agent' }],
      currentContext: 'gone',
    });
    const client = new KubeClient(gone);
    const access = new MetricsAccessReview({ client, logger: createLogger({ level: 'info', stream }) });
    const first = await access.decide(`Bearer ${prometheusToken}`, 'GET', '/metrics');
    expect(first).toEqual({ allowed: false, status: 500, message: "metrics access could not be checked with the API server (the agent's log says why)" });
    expect(await access.decide(`Bearer ${prometheusToken}`, 'GET', '/metrics')).toEqual(first);
    await logsFlushed();
    const logged = lines;
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({
      level: 'error',
      message: 'metrics access could not be reviewed with the API server',
      error: expect.stringContaining('ECONNREFUSED'),
    });
    expect(JSON.stringify(logged)).not.toContain(prometheusToken);
  });

  it('answers 500 and logs the refusal when the agent may not create reviews (its RBAC lacks the reviewer rules)', async () => {
    const { stream, lines } = captureLogLines();
    const unprivileged = new KubeClient(kubeConfigAs(hub.hub.kubeConfig(), `system:serviceaccount:${NAMESPACE}:intruder`));
    const access = new MetricsAccessReview({ client: unprivileged, logger: createLogger({ level: 'info', stream }) });
    expect(await access.decide(`Bearer ${prometheusToken}`, 'GET', '/metrics')).toMatchObject({ allowed: false, status: 500 });
    await logsFlushed();
    expect(lines).toEqual([expect.objectContaining({ level: 'error', error: expect.stringContaining('403 Forbidden') })]);
    expect(String(lines[0]?.['error'])).toContain('cannot create resource "tokenreviews"');
  });
});
