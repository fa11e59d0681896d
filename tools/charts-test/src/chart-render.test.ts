import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fleetCrds, memberAgentHubRules, memberNamespace } from '@fleet-gateway/control-plane';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helm-binary.js';
import { CHARTS, helm, parseManifests, renderText, templateArgs, type ChartName, type Manifest } from './helm.js';
import { containerOf, grants, named, ofKind, only, podTemplateOf, rulesOf } from './manifests.js';

const GOLDEN_DIR = path.join(REPO_ROOT, 'tools/charts-test/golden');
const WRITE_ACTIONS = ['create', 'update', 'patch', 'delete', 'deletecollection'];

/** Each rendering with its golden file; UPDATE_GOLDEN=1 rewrites them. */
const RENDERINGS: { chart: ChartName; name: string; values: string[] }[] = [
  { chart: 'hub-gateway', name: 'default', values: [] },
  { chart: 'hub-gateway', name: 'everything', values: ['hub-everything.yaml'] },
  { chart: 'member-discovery', name: 'default', values: ['member-minimal.yaml'] },
  { chart: 'member-discovery', name: 'everything', values: ['member-everything.yaml'] },
];

const rendered = new Map<string, Promise<string>>();
function rendering(chart: ChartName, values: string[]): Promise<string> {
  const key = `${chart}:${values.join(',')}`;
  if (!rendered.has(key)) rendered.set(key, renderText(chart, values));
  return rendered.get(key)!;
}
const manifestsOf = async (chart: ChartName, values: string[]): Promise<Manifest[]> => parseManifests(await rendering(chart, values));
/** The hub chart's grants to member agents (`memberClusters`), in their fleet-member-<member> namespaces; the rest are the agent's own. */
const isMemberAgentGrant = (m: Manifest): boolean => m.metadata.namespace?.startsWith(memberNamespace('')) ?? false;
const agentOwn = (manifests: Manifest[]): Manifest[] => manifests.filter((m) => !isMemberAgentGrant(m));

describe('golden helm template output', () => {
  for (const { chart, name, values } of RENDERINGS) {
    it(`${chart} with ${name} values equals golden/${chart}.${name}.yaml`, async () => {
      const text = await rendering(chart, values);
      const file = path.join(GOLDEN_DIR, `${chart}.${name}.yaml`);
      if (process.env.UPDATE_GOLDEN === '1') await writeFile(file, text);
      expect(text).toBe(await readFile(file, 'utf8'));
    });
  }
});

describe('every rendering', () => {
  for (const { chart, name, values } of RENDERINGS) {
    describe(`${chart} (${name})`, () => {
      it('runs its Deployment non-root, read-only, without privilege escalation or capabilities, seccomp RuntimeDefault', async () => {
        const deployment = only(await manifestsOf(chart, values), 'Deployment');
        const pod = podTemplateOf(deployment);
        expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
        expect(containerOf(deployment).securityContext).toEqual({
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        });
      });

      it('probes /healthz and /readyz on the health port the agent is told to serve, and serves metrics where it says', async () => {
        const container = containerOf(only(await manifestsOf(chart, values), 'Deployment'));
        const health = container.ports?.find((p) => p.name === 'health')?.containerPort;
        const metrics = container.ports?.find((p) => p.name === 'metrics')?.containerPort;
        expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'health' });
        expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'health' });
        expect(container.args).toContain(`--health-probe-bind-address=:${health}`);
        expect(container.args).toContain(`--metrics-bind-address=:${metrics}`);
        expect(container.resources).toHaveProperty('requests');
      });

      it('grants no wildcard in any RBAC rule, and every rule names its groups, resources and verbs', async () => {
        const roles = [...ofKind(await manifestsOf(chart, values), 'ClusterRole'), ...ofKind(await manifestsOf(chart, values), 'Role')];
        expect(roles.length).toBeGreaterThanOrEqual(2);
        for (const rule of roles.flatMap(rulesOf)) {
          // The one non-resource rule: the metrics reader's (its own test below).
          if (rule.nonResourceURLs) {
            expect(rule).toEqual({ nonResourceURLs: ['/metrics'], verbs: ['get'] });
            continue;
          }
          expect(rule.resources.length).toBeGreaterThan(0);
          expect(rule.verbs.length).toBeGreaterThan(0);
          for (const value of [...rule.apiGroups, ...rule.resources, ...rule.verbs, ...(rule.resourceNames ?? [])]) expect(value).not.toContain('*');
        }
      });

      it('binds its roles to the ServiceAccount the Deployment runs as, in fleetSystemNamespace', async () => {
        const manifests = agentOwn(await manifestsOf(chart, values));
        const account = only(manifests, 'ServiceAccount');
        const deployment = only(manifests, 'Deployment');
        expect(podTemplateOf(deployment).spec.serviceAccountName).toBe(account.metadata.name);
        expect(deployment.metadata.namespace).toBe(account.metadata.namespace);
        for (const binding of [...ofKind(manifests, 'ClusterRoleBinding'), ...ofKind(manifests, 'RoleBinding')]) {
          expect(binding['subjects']).toEqual([{ kind: 'ServiceAccount', name: account.metadata.name, namespace: account.metadata.namespace }]);
        }
      });

      it('installs its Fleet CRDs as templates kept on uninstall', async () => {
        const crds = ofKind(await manifestsOf(chart, values), 'CustomResourceDefinition');
        const expected =
          chart === 'hub-gateway'
            ? ['internalserviceexports.networking.fleet.azure.com', 'serviceimports.networking.fleet.azure.com']
            : ['serviceexports.networking.fleet.azure.com'];
        expect(crds.map((c) => c.metadata.name).sort()).toEqual(expected);
        for (const crd of crds) expect(crd.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
      });

      it('renders each CRD exactly as charts/fleet-networking-crds/files has it, plus the keep annotation', async () => {
        const sources = await fleetCrds();
        for (const crd of ofKind(await manifestsOf(chart, values), 'CustomResourceDefinition')) {
          const source = sources.find((s) => s.metadata.name === crd.metadata.name);
          const { annotations, ...metadata } = crd.metadata;
          expect(annotations).toEqual({ 'helm.sh/resource-policy': 'keep' });
          expect({ ...crd, metadata }).toEqual(source);
        }
      });
    });
  }
});

describe('the PodDisruptionBudget and the NetworkPolicy', () => {
  for (const { chart, name, values } of RENDERINGS) {
    it(`${chart} (${name}): both off by default; when on, they select exactly the Deployment's pods`, async () => {
      const manifests = await manifestsOf(chart, values);
      const budgets = ofKind(manifests, 'PodDisruptionBudget');
      const policies = ofKind(manifests, 'NetworkPolicy');
      if (name === 'default') {
        expect([budgets, policies]).toEqual([[], []]);
        return;
      }
      const deployment = only(manifests, 'Deployment');
      const selector = (deployment['spec'] as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
      expect((only(manifests, 'PodDisruptionBudget')['spec'] as { selector: unknown }).selector).toEqual({ matchLabels: selector });
      const policy = only(manifests, 'NetworkPolicy')['spec'] as {
        podSelector: unknown;
        policyTypes: string[];
        ingress: { ports: { port: number }[] }[];
        egress: { ports?: { port: number; protocol: string }[] }[];
      };
      expect(policy.podSelector).toEqual({ matchLabels: selector });
      expect(policy.policyTypes).toEqual(['Ingress', 'Egress']);
      // Ingress: the metrics and health ports the container serves, nothing else.
      const served = (containerOf(deployment).ports ?? []).map((p) => p.containerPort).sort();
      expect(policy.ingress.flatMap((rule) => rule.ports.map((p) => p.port)).sort()).toEqual(served);
      // Egress: DNS, then HTTPS (API servers, ARM, Entra ID) and the instance metadata endpoint.
      expect(policy.egress.flatMap((rule) => (rule.ports ?? []).map((p) => `${p.port}/${p.protocol}`))).toEqual(['53/UDP', '53/TCP', '443/TCP', '80/TCP']);
    });
  }
});

describe('the Lease and leader election', () => {
  it('the hub Role covers exactly the Lease the hub agent elects on, in the namespace its flag names', async () => {
    for (const values of [[], ['hub-everything.yaml']]) {
      const manifests = agentOwn(await manifestsOf('hub-gateway', values));
      const role = only(manifests, 'Role');
      const args = containerOf(only(manifests, 'Deployment')).args ?? [];
      expect(args).toContain(`--leader-election-namespace=${role.metadata.namespace}`);
      expect(rulesOf(role).find((r) => r.verbs.includes('update'))?.resourceNames).toEqual(['hub-gateway-controller-manager.networking.fleet.azure.com']);
    }
  });

  it('with leader election off: --leader-elect=false and no Lease Role', async () => {
    const manifests = agentOwn(parseManifests(await renderText('hub-gateway', ['hub-everything.yaml'], ['leaderElection.enabled=false'])));
    expect(ofKind(manifests, 'Role')).toEqual([]);
    expect(containerOf(only(manifests, 'Deployment')).args).toContain('--leader-elect=false');
  });
});

describe('feature gates', () => {
  it('the hub passes no --enable-afd (nor any AFD flag) by default, and --enable-afd with its settings when enabled', async () => {
    const off = containerOf(only(await manifestsOf('hub-gateway', []), 'Deployment')).args ?? [];
    expect(off.filter((a) => /^--(enable-afd|afd-|hub-name|default-afd-sku)/.test(a))).toEqual([]);
    const on = containerOf(only(await manifestsOf('hub-gateway', ['hub-everything.yaml']), 'Deployment')).args ?? [];
    expect(on).toEqual(
      expect.arrayContaining(['--enable-afd', '--afd-resource-group=rg-frontdoor', '--hub-name=hub-eastus2', '--default-afd-sku=Premium_AzureFrontDoor']),
    );
  });

  it('the member passes neither Private Link gate by default, and both when enabled', async () => {
    const gates = ['--enable-private-link-origin-discovery', '--approve-private-link-connections'];
    const off = containerOf(only(await manifestsOf('member-discovery', ['member-minimal.yaml']), 'Deployment')).args ?? [];
    for (const gate of gates) expect(off.some((a) => a.startsWith(gate))).toBe(false);
    const on = containerOf(only(await manifestsOf('member-discovery', ['member-everything.yaml']), 'Deployment')).args ?? [];
    expect(on).toEqual(expect.arrayContaining(gates));
  });
});

describe('image', () => {
  const DIGEST = `sha256:${'ab12'.repeat(16)}`;
  for (const chart of CHARTS) {
    const minimal = chart === 'member-discovery' ? ['member-minimal.yaml'] : [];
    it(`${chart}: repository:tag (tag defaulting to appVersion), and repository@digest when a digest is set, whatever the tag`, async () => {
      const imageOf = async (set: string[]) => containerOf(only(parseManifests(await renderText(chart, minimal, set)), 'Deployment')).image;
      const appVersion = /^appVersion:\s*"?([^"\n]+)"?$/m.exec(await readFile(path.join(REPO_ROOT, 'charts', chart, 'Chart.yaml'), 'utf8'))?.[1];
      expect(await imageOf([])).toBe(`ghcr.io/fleet-gateway/${chart}:${appVersion}`);
      expect(await imageOf(['image.tag=1.2.3'])).toBe(`ghcr.io/fleet-gateway/${chart}:1.2.3`);
      expect(await imageOf([`image.digest=${DIGEST}`, 'image.tag=1.2.3'])).toBe(`ghcr.io/fleet-gateway/${chart}@${DIGEST}`);
    });
  }
});

describe('Azure credential', () => {
  it('passes --azure-credential=workload-identity with the workload identity, else managed-identity with its optional client id, only with the Azure side on', async () => {
    const CLIENT = '00000000-0000-4000-8000-0000000000d4';
    for (const [chart, everything, minimal] of [
      ['hub-gateway', 'hub-everything.yaml', []],
      ['member-discovery', 'member-everything.yaml', ['member-minimal.yaml']],
    ] as const) {
      const argsOf = async (files: readonly string[], set: string[] = []) =>
        containerOf(only(parseManifests(await renderText(chart, files, set)), 'Deployment')).args ?? [];
      const credentialArgs = (args: string[]) => args.filter((a) => a.startsWith('--azure-c'));
      expect(credentialArgs(await argsOf([everything]))).toEqual([
        '--azure-credential=workload-identity',
        '--azure-client-id=00000000-0000-4000-8000-0000000000c3',
      ]);
      expect(credentialArgs(await argsOf([everything], ['workloadIdentity.enabled=false']))).toEqual(['--azure-credential=managed-identity']);
      expect(credentialArgs(await argsOf([everything], ['workloadIdentity.enabled=false', `managedIdentity.clientId=${CLIENT}`]))).toEqual([
        '--azure-credential=managed-identity',
        `--azure-client-id=${CLIENT}`,
      ]);
      expect(credentialArgs(await argsOf(minimal))).toEqual([]);
    }
  });

  it("mounts no cloud config Secret: azure.json carries the cluster identity's client secret, and every field the agents read from it is a value", async () => {
    for (const [chart, everything] of [
      ['hub-gateway', 'hub-everything.yaml'],
      ['member-discovery', 'member-everything.yaml'],
    ] as const) {
      const deployment = only(await manifestsOf(chart, [everything]), 'Deployment');
      expect(containerOf(deployment).args?.some((a) => a.startsWith('--cloud-config'))).toBe(false);
      expect(JSON.stringify(deployment)).not.toContain('azure.json');
    }
  });
});

describe('workload identity', () => {
  it('annotates the ServiceAccount with the client id and labels the pod only when enabled', async () => {
    for (const [chart, everything, minimal] of [
      ['hub-gateway', 'hub-everything.yaml', []],
      ['member-discovery', 'member-everything.yaml', ['member-minimal.yaml']],
    ] as const) {
      const on = await manifestsOf(chart, [everything]);
      expect(only(on, 'ServiceAccount').metadata.annotations?.['azure.workload.identity/client-id']).toBe('00000000-0000-4000-8000-0000000000c3');
      expect(podTemplateOf(only(on, 'Deployment')).metadata.labels?.['azure.workload.identity/use']).toBe('true');
      const off = await manifestsOf(chart, [...minimal]);
      expect(only(off, 'ServiceAccount').metadata.annotations?.['azure.workload.identity/client-id']).toBeUndefined();
      expect(podTemplateOf(only(off, 'Deployment')).metadata.labels?.['azure.workload.identity/use']).toBeUndefined();
    }
  });
});

describe('the member chart', () => {
  it('grants what the agent calls and no more: Services listed and watched, Nodes only listed, no read by name, and nothing on the hub', async () => {
    const manifests = await manifestsOf('member-discovery', ['member-everything.yaml']);
    const rules = rulesOf(named(manifests, 'ClusterRole', only(manifests, 'Deployment').metadata.name));
    const verbsOn = (group: string, resource: string) =>
      rules
        .filter((r) => r.apiGroups.includes(group) && r.resources.includes(resource))
        .flatMap((r) => r.verbs)
        .sort();
    expect(verbsOn('', 'services')).toEqual(['list', 'watch']);
    expect(verbsOn('', 'nodes')).toEqual(['list']);
    expect(verbsOn('networking.fleet.azure.com', 'serviceexports')).toEqual(['list', 'patch', 'watch']);
    expect(verbsOn('networking.fleet.azure.com', 'serviceexports/status')).toEqual(['patch']);
    expect(verbsOn('events.k8s.io', 'events')).toEqual(['create', 'patch']);
    for (const resource of ['internalserviceexports', 'serviceimports']) {
      expect(rules.some((r) => r.resources.some((res) => res.startsWith(resource)))).toBe(false);
    }
  });

  it('with a kubeconfig Secret: mounts it read-only and passes --hub-kubeconfig, without upstream environment', async () => {
    const container = containerOf(only(await manifestsOf('member-discovery', ['member-minimal.yaml']), 'Deployment'));
    expect(container.args).toContain('--hub-kubeconfig=/etc/fleet-gateway/hub/kubeconfig');
    expect(container.env).toBeUndefined();
  });

  it("with upstream's environment: HUB_SERVER_URL, HUB_CERTIFICATE_AUTHORITY, CONFIG_PATH (the mounted token) and MEMBER_CLUSTER_NAME", async () => {
    const container = containerOf(only(await manifestsOf('member-discovery', ['member-everything.yaml']), 'Deployment'));
    expect(container.env).toEqual([
      { name: 'HUB_SERVER_URL', value: 'https://hub.example.com:443' },
      { name: 'HUB_CERTIFICATE_AUTHORITY', value: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==' },
      { name: 'CONFIG_PATH', value: '/etc/fleet-gateway/hub-token/token' },
      { name: 'MEMBER_CLUSTER_NAME', value: 'member-1' },
    ]);
    expect(container.args?.some((a) => a.startsWith('--hub-kubeconfig'))).toBe(false);
  });

  it('refuses to render without a hub connection, naming the values to set', async () => {
    const result = await helm(templateArgs('member-discovery', [], ['memberClusterName=member-1']));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('hub: set hub.kubeconfigSecret.name');
  });
});

describe('the hub chart', () => {
  it('grants writes only where the agent writes: no update of any object, no delete but of ServiceImports', async () => {
    const manifests = await manifestsOf('hub-gateway', []);
    const rules = rulesOf(named(manifests, 'ClusterRole', only(manifests, 'Deployment').metadata.name));
    expect(rules.some((r) => r.verbs.includes('update'))).toBe(false);
    const deletable = rules.filter((r) => r.verbs.includes('delete')).flatMap((r) => r.resources);
    expect(deletable).toEqual(['serviceimports']);
    expect(grants(rules, 'networking.fleet.azure.com', 'serviceimports', 'create')).toBe(true);
    for (const verb of WRITE_ACTIONS) expect(grants(rules, 'apiextensions.k8s.io', 'customresourcedefinitions', verb)).toBe(false);
  });
});

describe('secure metrics', () => {
  for (const { chart, name, values } of RENDERINGS) {
    it(`${chart} (${name}): --metrics-secure, the review rules bound to the agent, and a metrics-reader role for scrapers`, async () => {
      const manifests = await manifestsOf(chart, values);
      const deployment = only(manifests, 'Deployment');
      const fullname = deployment.metadata.name;
      const container = containerOf(deployment);
      expect(container.args).toContain('--metrics-secure=true');
      const auth = rulesOf(named(manifests, 'ClusterRole', `${fullname}-metrics-auth`));
      expect(auth).toEqual([
        { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
        { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      ]);
      expect(named(manifests, 'ClusterRoleBinding', `${fullname}-metrics-auth`)['roleRef']).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: `${fullname}-metrics-auth`,
      });
      expect(rulesOf(named(manifests, 'ClusterRole', `${fullname}-metrics-reader`))).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
      // A cert Secret (the everything values) is mounted read-only where --metrics-cert-dir points; without it, none.
      const { volumes } = podTemplateOf(deployment).spec;
      const mounts = container.volumeMounts ?? [];
      if (name === 'everything') {
        expect(container.args).toContain('--metrics-cert-dir=/etc/fleet-gateway/metrics-certs');
        expect(mounts).toContainEqual({ name: 'metrics-certs', mountPath: '/etc/fleet-gateway/metrics-certs', readOnly: true });
        expect(volumes).toContainEqual({ name: 'metrics-certs', secret: { secretName: 'metrics-serving-certificate' } });
      } else {
        expect(container.args?.some((a) => a.startsWith('--metrics-cert-dir'))).toBe(false);
        expect(mounts.some((m) => m.name === 'metrics-certs')).toBe(false);
      }
    });
  }

  it('with metrics.secure=false: --metrics-secure=false and no metrics roles', async () => {
    for (const { chart, values } of RENDERINGS.filter((r) => r.name === 'default')) {
      const manifests = parseManifests(await renderText(chart, values, ['metrics.secure=false']));
      expect(containerOf(only(manifests, 'Deployment')).args).toContain('--metrics-secure=false');
      expect(ofKind(manifests, 'ClusterRole').filter((r) => r.metadata.name.includes('-metrics-'))).toEqual([]);
    }
  });
});

describe("the hub chart's member agent Roles (memberClusters)", () => {
  it('renders none by default', async () => {
    expect((await manifestsOf('hub-gateway', [])).filter(isMemberAgentGrant)).toEqual([]);
  });

  it("renders per member a Role in fleet-member-<name> with exactly tools/control-plane's member hub rules, bound to its subject, and no Namespace", async () => {
    const manifests = await manifestsOf('hub-gateway', ['hub-everything.yaml']);
    const grantsToMembers = manifests.filter(isMemberAgentGrant);
    expect(grantsToMembers.map((m) => `${m.kind} ${m.metadata.namespace}/${m.metadata.name}`).sort()).toEqual([
      'Role fleet-member-member-1/hub-gateway-member-discovery',
      'Role fleet-member-member-2/hub-gateway-member-discovery',
      'RoleBinding fleet-member-member-1/hub-gateway-member-discovery',
      'RoleBinding fleet-member-member-2/hub-gateway-member-discovery',
    ]);
    expect(ofKind(manifests, 'Namespace')).toEqual([]);
    // One source: the local system's and the tests' member tokens get the same rules (a drift fails here).
    const rules = await memberAgentHubRules();
    for (const role of ofKind(grantsToMembers, 'Role')) expect(rulesOf(role)).toEqual(rules);
    const subjectsIn = (namespace: string) => ofKind(grantsToMembers, 'RoleBinding').find((b) => b.metadata.namespace === namespace)?.['subjects'];
    expect(subjectsIn('fleet-member-member-1')).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: '00000000-0000-4000-8000-0000000000d4' },
    ]);
    // A ServiceAccount subject without a namespace is the member's own hub namespace's.
    expect(subjectsIn('fleet-member-member-2')).toEqual([{ kind: 'ServiceAccount', name: 'member-discovery', namespace: 'fleet-member-member-2' }]);
  });

  it('grants the member agent no read by name, no update, nothing on status and no Events on the hub', async () => {
    const rules = await memberAgentHubRules();
    expect(rules.flatMap((r) => r.verbs ?? [])).not.toContain('get');
    expect(rules.flatMap((r) => r.verbs ?? [])).not.toContain('update');
    expect(rules.flatMap((r) => r.resources ?? [])).toEqual(['internalserviceexports']);
  });

  const refusals: { set: string[]; message: RegExp }[] = [
    {
      set: [
        'memberClusters[0].name=member-1',
        'memberClusters[0].subject.kind=User',
        'memberClusters[0].subject.name=a',
        'memberClusters[1].name=member-1',
        'memberClusters[1].subject.kind=Group',
        'memberClusters[1].subject.name=b',
      ],
      message: /memberClusters: "member-1" is listed twice/,
    },
    {
      set: [
        'memberClusters[0].name=member-1',
        'memberClusters[0].subject.kind=User',
        'memberClusters[0].subject.name=a',
        'memberClusters[0].subject.namespace=fleet-system',
      ],
      message: /"member-1": subject.namespace "fleet-system" is set for a User; only a ServiceAccount subject has a namespace/,
    },
  ];
  for (const { set, message } of refusals) {
    it(`refuses ${set.join(',')} with ${message.source}`, async () => {
      const result = await helm(templateArgs('hub-gateway', [], set));
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    });
  }
});

describe('values.schema.json', () => {
  const cases: { chart: ChartName; base: string[]; set: string; field: RegExp }[] = [
    { chart: 'hub-gateway', base: [], set: 'enableAfdd=true', field: /enableAfdd/ },
    { chart: 'hub-gateway', base: [], set: 'replicaCount=many', field: /replicaCount/ },
    { chart: 'hub-gateway', base: [], set: 'afd.defaultSku=Classic', field: /defaultSku/ },
    { chart: 'hub-gateway', base: [], set: 'ports.health=70000', field: /health/ },
    { chart: 'hub-gateway', base: [], set: 'enableAfd=true', field: /resourceGroup|hubName/ },
    { chart: 'hub-gateway', base: [], set: 'memberClusters=member-1', field: /memberClusters/ },
    {
      chart: 'hub-gateway',
      base: [],
      set: 'memberClusters[0].name=member-1,memberClusters[0].subject.kind=User,memberClusters[0].subject.name=a,memberClusters[0].namespace=x',
      field: /memberClusters\/0.*namespace/,
    },
    {
      chart: 'hub-gateway',
      base: [],
      set: 'memberClusters[0].name=Member_1,memberClusters[0].subject.kind=User,memberClusters[0].subject.name=a',
      field: /memberClusters\/0\/name/,
    },
    {
      chart: 'hub-gateway',
      base: [],
      set: 'memberClusters[0].name=member-1,memberClusters[0].subject.kind=Robot,memberClusters[0].subject.name=a',
      field: /memberClusters\/0\/subject\/kind/,
    },
    {
      chart: 'hub-gateway',
      base: [],
      set: 'memberClusters[0].name=member-1,memberClusters[0].subject.kind=ServiceAccount,memberClusters[0].subject.name=Member_Discovery',
      field: /memberClusters\/0\/subject\/name/,
    },
    { chart: 'hub-gateway', base: [], set: 'memberClusters[0].name=member-1', field: /memberClusters\/0.*subject/ },
    { chart: 'hub-gateway', base: [], set: 'image.digest=latest', field: /digest/ },
    { chart: 'hub-gateway', base: [], set: 'azure.cloudConfigSecret=azure-cloud-config', field: /cloudConfigSecret/ },
    { chart: 'member-discovery', base: ['member-minimal.yaml'], set: 'image.digest=sha256:abc', field: /digest/ },
    { chart: 'member-discovery', base: ['member-minimal.yaml'], set: 'managedIdentity.clientId=my-identity', field: /clientId/ },
    { chart: 'member-discovery', base: ['member-minimal.yaml'], set: 'hub.kubeconfig=x', field: /kubeconfig/ },
    {
      chart: 'member-discovery',
      base: ['member-minimal.yaml'],
      set: 'enablePrivateLinkOriginDiscovery=true,privateLinkApprovalHubs[0]=hub-eastus2',
      field: /privateLinkApprovalHubs/,
    },
    {
      chart: 'member-discovery',
      base: ['member-minimal.yaml'],
      set: 'privateLinkApprovalHubs[0]=subscription/s/cluster/hub',
      field: /enablePrivateLinkOriginDiscovery/,
    },
    { chart: 'member-discovery', base: ['member-minimal.yaml'], set: 'enablePrivateLinkOriginDiscovery=yes', field: /enablePrivateLinkOriginDiscovery/ },
    { chart: 'member-discovery', base: ['member-minimal.yaml'], set: 'memberClusterName=Member_1', field: /memberClusterName/ },
    { chart: 'member-discovery', base: ['member-minimal.yaml'], set: 'approvePrivateLinkConnections=true', field: /enablePrivateLinkOriginDiscovery/ },
    { chart: 'hub-gateway', base: [], set: 'metrics.secured=true', field: /secured/ },
    { chart: 'hub-gateway', base: [], set: 'metrics.secure=false,metrics.certSecret=metrics-tls', field: /certSecret/ },
    { chart: 'member-discovery', base: ['member-minimal.yaml'], set: 'metrics.secure=no', field: /secure/ },
  ];
  for (const { chart, base, set, field } of cases) {
    it(`${chart} refuses --set ${set}, naming the field`, async () => {
      const result = await helm(templateArgs(chart, base, [set]));
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/values don't meet the specifications of the schema|schema/i);
      expect(result.stderr).toMatch(field);
      expect(result.stdout).toBe('');
    });
  }
});
