import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ArmMetrics } from '@fleet-gateway/arm-runtime';
import { ControllerMetrics, outcomeLabels } from '@fleet-gateway/controller';
import { GATEWAY_STATES, GatewayMetrics } from '@fleet-gateway/gateway-controllers';
import { PrivateLinkApprovalMetrics } from '@fleet-gateway/member-azure';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { REPO_ROOT } from './helm-binary.js';
import { render, type ChartName, type Manifest } from './helm.js';
import { ofKind, only } from './manifests.js';
import { ensurePromtool, PROMETHEUS_MODULE_VERSION, PROMTOOL_GO_MODULE_DIR } from './promtool-binary.js';
import { metricNames } from './promql-metric-names.js';

const run = promisify(execFile);

interface AlertRule {
  alert: string;
  expr: string;
  for: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
type RuleGroups = { name: string; rules: AlertRule[] }[];

const MONITORING_ON = ['serviceMonitor.enabled=true', 'prometheusRule.enabled=true', 'grafanaDashboard.enabled=true'];
const minimalValues = (chart: ChartName): string[] => (chart === 'member-discovery' ? ['member-minimal.yaml'] : []);
const renderMonitoring = (chart: ChartName, set: string[] = []): Promise<Manifest[]> => render(chart, minimalValues(chart), [...MONITORING_ON, ...set]);
const groupsOf = (manifests: Manifest[]): RuleGroups => (only(manifests, 'PrometheusRule')['spec'] as { groups: RuleGroups }).groups;
const rulesOf = (manifests: Manifest[]): AlertRule[] => groupsOf(manifests).flatMap((g) => g.rules);

/** Every query of a dashboard: its panels' targets and its variables' label_values metrics. */
function dashboardQueries(manifests: Manifest[]): { exprs: string[]; variableMetrics: string[] } {
  const configMap = only(manifests, 'ConfigMap');
  const dashboard = JSON.parse(Object.values(configMap['data'] as Record<string, string>)[0]!) as {
    panels: { targets: { expr: string }[] }[];
    templating: { list: { definition?: string }[] };
  };
  return {
    exprs: dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
    variableMetrics: dashboard.templating.list.flatMap((v) => /^label_values\((\w+),/.exec(v.definition ?? '')?.[1] ?? []),
  };
}

/** The sample names a registry's exposition declares (its # TYPE lines; a histogram's samples are _bucket, _sum and _count). */
async function servedNames(registry: Registry): Promise<Set<string>> {
  const names = new Set<string>();
  for (const [, name, type] of (await registry.metrics()).matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    else names.add(name!);
  }
  return names;
}

/** The metrics each agent registers, on a registry built as the agents build theirs. */
async function agentMetricNames(chart: ChartName): Promise<Set<string>> {
  const registry = new Registry();
  new ControllerMetrics(registry);
  if (chart === 'hub-gateway') {
    new ArmMetrics(registry);
    new GatewayMetrics(registry);
  } else {
    new PrivateLinkApprovalMetrics(registry);
  }
  return servedNames(registry);
}

async function promtool(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  const binary = await ensurePromtool();
  return run(binary, args, { cwd }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
}

/** A folder with the rendered rules as a Prometheus rule file, rules.yaml. */
async function ruleFileDir(groups: RuleGroups): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'chart-rules-'));
  await writeFile(path.join(dir, 'rules.yaml'), stringify({ groups }));
  return dir;
}

describe('promtool', () => {
  it(`is built from github.com/prometheus/prometheus ${PROMETHEUS_MODULE_VERSION}, the version promtool/go.mod requires`, async () => {
    const goMod = await readFile(path.join(PROMTOOL_GO_MODULE_DIR, 'go.mod'), 'utf8');
    expect(goMod).toMatch(/^tool github\.com\/prometheus\/prometheus\/cmd\/promtool$/m);
    expect(goMod).toMatch(new RegExp(`^\\s*github\\.com/prometheus/prometheus ${PROMETHEUS_MODULE_VERSION.replace(/\./g, '\\.')}\\b`, 'm'));
    const { output } = await promtool(['--version'], REPO_ROOT);
    expect(output).toContain('tags:             remove_all_sd');
  });

  it('refuses a rule file with a broken expression (the check is not blind)', async () => {
    const dir = await ruleFileDir([{ name: 'broken', rules: [{ alert: 'Broken', expr: 'sum by (job (up)', for: '1m', labels: {}, annotations: {} }] }]);
    const result = await promtool(['check', 'rules', 'rules.yaml'], dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/parse error/);
  });
});

describe('monitoring objects are off by default', () => {
  for (const chart of ['hub-gateway', 'member-discovery'] as const) {
    it(`${chart} renders no ServiceMonitor, metrics Service, PrometheusRule or dashboard ConfigMap`, async () => {
      const manifests = await render(chart, minimalValues(chart));
      for (const kind of ['ServiceMonitor', 'Service', 'PrometheusRule', 'ConfigMap']) expect(ofKind(manifests, kind)).toEqual([]);
    });
  }
});

describe('the ServiceMonitor', () => {
  for (const chart of ['hub-gateway', 'member-discovery'] as const) {
    it(`${chart}: selects only its metrics Service, which selects the Deployment's pods on the metrics port`, async () => {
      const manifests = await renderMonitoring(chart);
      const service = only(manifests, 'Service');
      const monitor = only(manifests, 'ServiceMonitor')['spec'] as { selector: { matchLabels: Record<string, string> }; endpoints: { port: string }[] };
      for (const [key, value] of Object.entries(monitor.selector.matchLabels)) expect(service.metadata.labels?.[key]).toBe(value);
      const deployment = only(manifests, 'Deployment')['spec'] as { selector: { matchLabels: Record<string, string> } };
      expect(service['spec']).toMatchObject({ selector: deployment.selector.matchLabels, ports: [{ name: 'metrics', targetPort: 'metrics' }] });
      expect(monitor.endpoints.map((e) => e.port)).toEqual(['metrics']);
    });

    it(`${chart}: scrapes secure /metrics over HTTPS with Prometheus's token, skipping verification only of the self-signed certificate`, async () => {
      const endpointOf = async (set: string[]) =>
        ((await renderMonitoring(chart, set)).find((m) => m.kind === 'ServiceMonitor')!['spec'] as { endpoints: object[] }).endpoints[0];
      expect(await endpointOf([])).toMatchObject({
        scheme: 'https',
        bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
        tlsConfig: { insecureSkipVerify: true },
      });
      const withCertificate = await endpointOf(['metrics.certSecret=metrics-tls', 'serviceMonitor.tokenSecret.name=prometheus-token']);
      expect(withCertificate).toMatchObject({
        scheme: 'https',
        authorization: { type: 'Bearer', credentials: { name: 'prometheus-token', key: 'token' } },
        tlsConfig: { ca: { secret: { name: 'metrics-tls', key: 'ca.crt' } }, serverName: `${chart}-metrics.fleet-system.svc` },
      });
      expect(withCertificate).not.toHaveProperty('bearerTokenFile');
      expect(withCertificate).not.toHaveProperty('tlsConfig.insecureSkipVerify');
      const plain = await endpointOf(['metrics.secure=false']);
      expect(plain).toMatchObject({ scheme: 'http' });
      expect(plain).not.toHaveProperty('tlsConfig');
      expect(plain).not.toHaveProperty('bearerTokenFile');
    });
  }
});

describe('the Grafana dashboards', () => {
  for (const chart of ['hub-gateway', 'member-discovery'] as const) {
    it(`${chart}: a ConfigMap with the sidecar's label grafana_dashboard: "1" and the dashboard JSON`, async () => {
      const configMap = only(await renderMonitoring(chart, ['grafanaDashboard.namespace=monitoring']), 'ConfigMap');
      expect(configMap.metadata).toMatchObject({ namespace: 'monitoring', labels: { grafana_dashboard: '1' } });
      expect(Object.keys(configMap['data'] as object)).toEqual([`${chart}.json`]);
      expect(dashboardQueries([configMap]).exprs.length).toBeGreaterThan(4);
    });
  }
});

describe('metric names in the rules and dashboards', () => {
  it('are found in PromQL: selectors with and without matchers, not functions, labels, strings, durations or variables', () => {
    const expr =
      'histogram_quantile(0.99, sum by (le, controller) (rate(controller_reconcile_duration_seconds_bucket{job=~"$job", note="a{b} c_total"}[$__rate_interval]))) / on (job) group_left (state) fleet_gateway_gateways offset 5m > bool 1e3 and up unless max without (pod) (workqueue_depth[5m:1m])';
    expect(metricNames(expr).sort()).toEqual(['controller_reconcile_duration_seconds_bucket', 'fleet_gateway_gateways', 'up', 'workqueue_depth']);
  });

  for (const chart of ['hub-gateway', 'member-discovery'] as const) {
    it(`${chart}: every one is a series the agent serves`, async () => {
      const manifests = await renderMonitoring(chart);
      const { exprs, variableMetrics } = dashboardQueries(manifests);
      const used = new Set([...rulesOf(manifests).flatMap((r) => metricNames(r.expr)), ...exprs.flatMap(metricNames), ...variableMetrics]);
      const served = await agentMetricNames(chart);
      expect([...used].filter((name) => !served.has(name))).toEqual([]);
      expect(used.size).toBeGreaterThan(4);
    });
  }

  it('the state and outcome values the rules match on are ones the agents report', async () => {
    const exprs = [...rulesOf(await renderMonitoring('hub-gateway')), ...rulesOf(await renderMonitoring('member-discovery'))].map((r) => r.expr);
    const valuesOf = (label: string) => exprs.flatMap((e) => [...e.matchAll(new RegExp(`\\b${label}=~?"([^"]+)"`, 'g'))].flatMap((m) => m[1]!.split('|')));
    expect(valuesOf('state').length).toBeGreaterThan(0);
    for (const state of valuesOf('state')) expect(GATEWAY_STATES).toContain(state);
    expect(valuesOf('outcome').length).toBeGreaterThan(0);
    for (const outcome of valuesOf('outcome')) expect(outcomeLabels).toContain(outcome);
  });
});

describe('the PrometheusRules', () => {
  for (const chart of ['hub-gateway', 'member-discovery'] as const) {
    it(`${chart}: promtool check rules finds no problem`, async () => {
      const groups = groupsOf(await renderMonitoring(chart));
      const result = await promtool(['check', 'rules', 'rules.yaml'], await ruleFileDir(groups));
      expect(result.output).toContain(`SUCCESS: ${groups.flatMap((g) => g.rules).length} rules found`);
      expect(result.code).toBe(0);
    });

    it(`${chart}: every alert says what it is and what to do, and links a section of docs/operations.md that exists`, async () => {
      const operations = await readFile(path.join(REPO_ROOT, 'docs/operations.md'), 'utf8');
      const anchors = new Set([...operations.matchAll(/^#+ (.+)$/gm)].map((m) => githubAnchor(m[1]!)));
      for (const rule of rulesOf(await renderMonitoring(chart))) {
        expect(Object.keys(rule.annotations).sort()).toEqual(['description', 'runbook_url', 'summary']);
        const anchor = /#([\w-]+)$/.exec(rule.annotations['runbook_url']!)?.[1];
        expect(anchor, rule.alert).toBeDefined();
        expect(anchors, `${rule.alert} links #${anchor}`).toContain(anchor);
      }
    });
  }

  it('take their thresholds and durations from the values, and their series from prometheusRule.selector (hub-everything.yaml)', async () => {
    const rules = rulesOf(await render('hub-gateway', ['hub-everything.yaml']));
    const rule = (name: string) => rules.find((r) => r.alert === name)!;
    expect(rule('FleetGatewayAfdCapacityHigh').expr).toMatch(/\) > 0\.9$/);
    expect(rule('FleetGatewayAfdCapacityHigh').for).toBe('30m');
    expect(rule('FleetGatewayNotProgrammed').for).toBe('30m');
    expect(rule('FleetGatewayHeld').for).toBe('1h');
    for (const r of rules) expect(r.expr).toContain('{job="hub-gateway-metrics", cluster="hub-eastus2"');
    for (const r of rules) expect(r.annotations['runbook_url']).toMatch(/^https:\/\/docs\.example\.com\/fleet-gateway\/operations\.md#[a-z-]+$/);
  });

  /** Each alert's firing: input series, when it must not fire yet, and the labels and summary when it must. */
  const alertTests: Record<
    ChartName,
    { series: Record<string, string>; alert: string; quietAt: string; firingAt: string; labels: Record<string, string>; summary: string }[]
  > = {
    'hub-gateway': [
      {
        series: {
          'fleet_gateway_gateways{job="hub-gateway-metrics",namespace="fleet-system",state="pending"}': '1x30',
          'fleet_gateway_gateways{job="hub-gateway-metrics",namespace="fleet-system",state="programmed"}': '3x30',
        },
        alert: 'FleetGatewayNotProgrammed',
        quietAt: '14m',
        firingAt: '16m',
        labels: { severity: 'warning', namespace: 'fleet-system', job: 'hub-gateway-metrics', state: 'pending' },
        summary: '1 Gateway(s) pending, not Programmed, for 15m',
      },
      {
        series: { 'fleet_gateway_gateways{job="hub-gateway-metrics",namespace="fleet-system",state="held"}': '0x5 2x40' },
        alert: 'FleetGatewayHeld',
        quietAt: '34m',
        firingAt: '36m',
        labels: { severity: 'warning', namespace: 'fleet-system', job: 'hub-gateway-metrics' },
        summary: '2 Gateway(s) held at an older generation for 30m',
      },
      {
        series: { 'fleet_gateway_private_link_connections_pending{job="hub-gateway-metrics",namespace="fleet-system"}': '3x40' },
        alert: 'FleetGatewayPrivateLinkApprovalPending',
        quietAt: '29m',
        firingAt: '31m',
        labels: { severity: 'warning', namespace: 'fleet-system', job: 'hub-gateway-metrics' },
        summary: '3 Private Link connection(s) of programmed origins not approved for 30m',
      },
      {
        // 6 throttled attempts a minute: 0.1 per second.
        series: { 'fleet_gateway_arm_throttled_total{job="hub-gateway-metrics",namespace="fleet-system",operation="routes"}': '0+6x30' },
        alert: 'FleetGatewayArmThrottled',
        quietAt: '10m',
        firingAt: '25m',
        labels: { severity: 'warning', namespace: 'fleet-system', job: 'hub-gateway-metrics' },
        summary: 'ARM has throttled the hub (429) for 15m, at 100m requests/s',
      },
      {
        series: {
          'fleet_gateway_afd_capacity_usage_ratio{job="hub-gateway-metrics",namespace="fleet-system",dimension="routes"}': '0.85x20',
          'fleet_gateway_afd_capacity_usage_ratio{job="hub-gateway-metrics",namespace="fleet-system",dimension="ruleSets"}': '0.5x20',
        },
        alert: 'FleetGatewayAfdCapacityHigh',
        quietAt: '9m',
        firingAt: '11m',
        labels: { severity: 'warning', namespace: 'fleet-system', job: 'hub-gateway-metrics', dimension: 'routes' },
        summary: 'An AFD profile uses 85% of its routes limit',
      },
      {
        series: {
          'controller_reconcile_total{job="hub-gateway-metrics",namespace="fleet-system",controller="gateway",outcome="retry"}': '0+2x30',
          'controller_reconcile_total{job="hub-gateway-metrics",namespace="fleet-system",controller="httproute",outcome="retry"}': '0x30',
        },
        alert: 'FleetGatewayReconcileErrors',
        quietAt: '10m',
        firingAt: '25m',
        labels: { severity: 'warning', namespace: 'fleet-system', job: 'hub-gateway-metrics', controller: 'gateway' },
        summary: "The gateway controller's reconciles have failed for 15m",
      },
    ],
    'member-discovery': [
      {
        series: { 'fleet_member_private_link_possible_impersonations{job="member-discovery-metrics",namespace="fleet-system"}': '1x20' },
        alert: 'FleetMemberPrivateLinkPossibleImpersonation',
        quietAt: '4m',
        firingAt: '6m',
        labels: { severity: 'critical', namespace: 'fleet-system', job: 'member-discovery-metrics' },
        summary: '1 Private Link connection(s) left Pending as a possible impersonation for 5m',
      },
      {
        series: {
          'controller_reconcile_total{job="member-discovery-metrics",namespace="fleet-system",controller="service-export",outcome="terminal"}': '0+1x30',
        },
        alert: 'FleetMemberReconcileErrors',
        quietAt: '10m',
        firingAt: '25m',
        labels: { severity: 'warning', namespace: 'fleet-system', job: 'member-discovery-metrics', controller: 'service-export' },
        summary: "The service-export controller's reconciles have failed for 15m",
      },
    ],
  };

  for (const chart of ['hub-gateway', 'member-discovery'] as const) {
    it(`${chart}: promtool test rules: each alert stays quiet before its 'for' and fires with its labels and annotations after`, async () => {
      const groups = groupsOf(await renderMonitoring(chart));
      const rules = groups.flatMap((g) => g.rules);
      // Every alert has its test, and series that do not qualify (another state, a lower ratio) never fire it.
      expect(alertTests[chart].map((t) => t.alert).sort()).toEqual(rules.map((r) => r.alert).sort());
      const tests = alertTests[chart].map((t) => {
        const { annotations } = rules.find((r) => r.alert === t.alert)!;
        return {
          interval: '1m',
          input_series: Object.entries(t.series).map(([series, values]) => ({ series, values })),
          alert_rule_test: [
            { eval_time: t.quietAt, alertname: t.alert, exp_alerts: [] },
            {
              eval_time: t.firingAt,
              alertname: t.alert,
              exp_alerts: [{ exp_labels: t.labels, exp_annotations: { ...annotations, summary: t.summary } }],
            },
          ],
        };
      });
      const dir = await ruleFileDir(groups);
      await writeFile(path.join(dir, 'tests.yaml'), stringify({ rule_files: ['rules.yaml'], evaluation_interval: '1m', tests }));
      const result = await promtool(['test', 'rules', 'tests.yaml'], dir);
      expect(result.output).toContain('SUCCESS');
      expect(result.code).toBe(0);
    });
  }

  it('promtool test rules fails an expectation the rules do not meet (the test is not blind)', async () => {
    const groups = groupsOf(await renderMonitoring('hub-gateway'));
    const dir = await ruleFileDir(groups);
    const tests = [
      {
        interval: '1m',
        input_series: [{ series: 'fleet_gateway_gateways{job="hub-gateway-metrics",namespace="fleet-system",state="pending"}', values: '1x30' }],
        // 10 minutes are under the 15 minutes' for: nothing fires yet.
        alert_rule_test: [{ eval_time: '10m', alertname: 'FleetGatewayNotProgrammed', exp_alerts: [{ exp_labels: { state: 'pending' } }] }],
      },
    ];
    await writeFile(path.join(dir, 'tests.yaml'), stringify({ rule_files: ['rules.yaml'], evaluation_interval: '1m', tests }));
    const result = await promtool(['test', 'rules', 'tests.yaml'], dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('FAILED');
  });
});

/** GitHub's anchor of a Markdown heading: lower case, punctuation but hyphens dropped, spaces to hyphens. */
function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
