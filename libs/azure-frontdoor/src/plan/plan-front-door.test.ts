import { describe, expect, it } from 'vitest';
import { sinkOriginGroupName } from './afd-names.js';
import { planFrontDoor } from './plan-front-door.js';
import { isWritable } from './plan-types.js';
import type { ProgrammableOriginSpec } from './spec-types.js';
import { buildGateway, type BackendFixture } from '../testing/gateway-builder.js';

const options = { hubIdentity: 'hub-1' };
const web: BackendFixture = {
  name: 'web',
  clusters: [
    { name: 'member-1', weight: 1 },
    { name: 'member-2', weight: 3 },
  ],
};
const api: BackendFixture = { name: 'api', clusters: [{ name: 'member-1' }] };

function programmable(origins: readonly unknown[]): ProgrammableOriginSpec[] {
  return origins.filter((o): o is ProgrammableOriginSpec => !(o as { keep?: string }).keep);
}

describe('planFrontDoor', () => {
  it('plans one profile (SKU from the model, tagged) and one endpoint, origins with weights, a route on the default domain', () => {
    const plan = planFrontDoor(
      buildGateway({ sku: 'Standard_AzureFrontDoor', backends: [web], routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }] }),
      options,
    );
    const { graph } = plan;
    expect(plan.problems).toEqual([]);
    expect(isWritable(plan)).toBe(true);
    expect(graph.profile.sku).toBe('Standard_AzureFrontDoor');
    expect(graph.profile.tags['fleet-networking-gateway-uid']).toBe('6f1c2d3e-0000-4000-8000-000000000001');
    expect(graph.endpoint.tags).toEqual(graph.profile.tags);
    expect(graph.originGroups).toHaveLength(1);
    expect(programmable(graph.origins).map((o) => [o.cluster, o.weight, o.enabledState, o.priority, o.httpPort])).toEqual([
      ['member-1', 333, 'Enabled', 1, 8080],
      ['member-2', 1000, 'Enabled', 1, 8080],
    ]);
    expect(graph.routes).toHaveLength(1);
    expect(graph.routes[0]).toMatchObject({
      patterns: ['/', '/*'],
      supportedProtocols: ['Http'],
      forwardingProtocol: 'HttpOnly',
      ruleSets: [],
      withdrawn: false,
    });
    expect(graph.routes[0]?.provenance).toEqual([{ kind: 'HTTPRoute', namespace: 'store', name: 'r', section: 'rule/0' }]);
  });

  it('the origin group takes health probe and latency band from the backend', () => {
    const graph = planFrontDoor(
      buildGateway({
        backends: [{ ...web, probePath: '/ready', probeProtocol: 'Https', latency: 50 }],
        routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }],
      }),
      options,
    ).graph;
    expect(graph.originGroups[0]).toMatchObject({
      healthProbe: { probePath: '/ready', probeProtocol: 'Https', probeRequestType: 'HEAD', probeIntervalInSeconds: 30 },
      additionalLatencyInMilliseconds: 50,
    });
    expect(graph.routes[0]?.forwardingProtocol).toBe('HttpsOnly');
  });

  it("the forwarding protocol follows the backend port's appProtocol over the probe protocol, and both origin ports are the backend port", () => {
    const httpsApp = planFrontDoor(
      buildGateway({ backends: [{ ...web, appProtocol: 'https' }], routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }] }),
      options,
    ).graph;
    expect(httpsApp.routes[0]?.forwardingProtocol).toBe('HttpsOnly');
    expect(programmable(httpsApp.origins).map((o) => [o.httpPort, o.httpsPort])).toEqual([
      [8080, 8080],
      [8080, 8080],
    ]);
    const httpApp = planFrontDoor(
      buildGateway({ backends: [{ ...web, probeProtocol: 'Https', appProtocol: 'http' }], routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }] }),
      options,
    ).graph;
    expect(httpApp.routes[0]?.forwardingProtocol).toBe('HttpOnly');
  });

  it("a rule set override forwards with its own backend's appProtocol", () => {
    const model = buildGateway({
      backends: [web, { ...api, appProtocol: 'https' }],
      routes: [
        {
          name: 'r',
          rules: [
            { matches: [{ path: { type: 'PathPrefix', value: '/' }, headers: [{ name: 'x-api', value: '1' }], queryParams: [] }], backends: [{ name: 'api' }] },
            { backends: [{ name: 'web' }] },
          ],
        },
      ],
    });
    const { graph, problems } = planFrontDoor(model, options);
    expect(problems).toEqual([]);
    expect(graph.rules.flatMap((r) => r.actions)).toMatchObject([{ type: 'originGroupOverride', forwardingProtocol: 'HttpsOnly' }]);
    expect(graph.routes[0]?.forwardingProtocol).toBe('HttpOnly');
  });

  it('refuses only the rule whose backends forward with different protocols, naming each', () => {
    const model = buildGateway({
      backends: [{ ...web, appProtocol: 'https' }, api],
      routes: [
        { name: 'r', rules: [{ backends: [{ name: 'web' }, { name: 'api' }] }] },
        { name: 'other', hostnames: ['other.example.com'], rules: [{ backends: [{ name: 'api' }] }] },
      ],
    });
    const plan = planFrontDoor(model, options);
    expect(plan.problems.map((p) => [p.code, p.source?.name, p.blocksWrites])).toEqual([['OriginGroupSettingsDiffer', 'r', false]]);
    expect(plan.problems[0]?.message).toContain('different forwarding protocols');
    expect(plan.problems[0]?.message).toContain('(store/api:8080: HttpOnly (health probe protocol); store/web:8080: HttpsOnly (appProtocol https))');
    expect(plan.graph.routes.map((r) => [r.provenance[0]?.name, r.forwardingProtocol])).toEqual([['other', 'HttpOnly']]);
  });

  it('shares one origin group between rules of different routes with the same weighted backend set', () => {
    const model = buildGateway({
      backends: [web],
      routes: [
        { name: 'a', rules: [{ paths: ['/a'], backends: [{ name: 'web' }] }] },
        { name: 'b', rules: [{ paths: ['/b'], backends: [{ name: 'web', weight: 5 }] }] },
      ],
    });
    const { graph } = planFrontDoor(model, options);
    expect(graph.originGroups).toHaveLength(1);
    expect(graph.origins).toHaveLength(2);
    expect(new Set(graph.routes.map((r) => r.originGroup)).size).toBe(1);
    expect(graph.originGroups[0]?.provenance.map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('gives different splits of one backend set their own groups (an origin belongs to exactly one group)', () => {
    const model = buildGateway({
      backends: [web, api],
      routes: [
        {
          name: 'a',
          rules: [
            {
              paths: ['/a'],
              backends: [
                { name: 'web', weight: 1 },
                { name: 'api', weight: 1 },
              ],
            },
          ],
        },
        {
          name: 'b',
          rules: [
            {
              paths: ['/b'],
              backends: [
                { name: 'web', weight: 9 },
                { name: 'api', weight: 1 },
              ],
            },
          ],
        },
      ],
    });
    const { graph } = planFrontDoor(model, options);
    expect(graph.originGroups).toHaveLength(2);
    expect(graph.origins).toHaveLength(6);
    expect(new Set(graph.origins.map((o) => `${o.ref.originGroup}/${o.ref.origin}`)).size).toBe(6);
  });

  it('refuses a rule mixing public and Private Link origins, and plans nothing for it', () => {
    const privateApi: BackendFixture = { name: 'api', clusters: [{ name: 'member-1', privateLink: {} }] };
    const model = buildGateway({
      backends: [web, privateApi],
      routes: [
        { name: 'mixed', rules: [{ paths: ['/m'], backends: [{ name: 'web' }, { name: 'api' }] }] },
        { name: 'fine', rules: [{ paths: ['/f'], backends: [{ name: 'web' }] }] },
      ],
    });
    const plan = planFrontDoor(model, options);
    expect(plan.problems.map((p) => [p.code, p.source?.name, p.blocksWrites])).toEqual([['MixedOriginConnectivity', 'mixed', false]]);
    expect(plan.problems[0]?.message).toBe(
      'store/mixed rule/0: public and Private Link origins cannot share one AFD origin group (store/api:8080 is private-link, store/web:8080 is public)',
    );
    expect(plan.graph.routes.flatMap((r) => r.patterns)).toEqual(['/f', '/f/*']);
    expect(isWritable(plan)).toBe(true);
    // Its paths are held: whatever AFD serves there now stays until the rule is fixed or deleted.
    expect(plan.graph.held.map((h) => [h.pattern, h.protocol, h.provenance.map((s) => s.name)])).toEqual([
      ['/m', 'Http', ['mixed']],
      ['/m/*', 'Http', ['mixed']],
    ]);
    expect(plan.graph.held[0]?.cause).toBe(plan.problems[0]?.message);
  });

  it('a conditional rule in error holds its path instead of letting its requests fall to the next rule', () => {
    const privateApi: BackendFixture = { name: 'api', clusters: [{ name: 'member-1', privateLink: {} }] };
    const model = buildGateway({
      backends: [web, privateApi, { name: 'other', clusters: [{ name: 'member-2' }] }],
      routes: [
        {
          name: 'r',
          rules: [
            {
              matches: [{ path: { type: 'PathPrefix', value: '/' }, headers: [{ name: 'x-canary', value: '1' }], queryParams: [] }],
              backends: [{ name: 'web' }, { name: 'api' }],
            },
            { backends: [{ name: 'other' }] },
          ],
        },
      ],
    });
    const plan = planFrontDoor(model, options);
    expect(plan.problems.map((p) => [p.code, p.source?.section])).toEqual([['MixedOriginConnectivity', 'rule/0']]);
    expect(plan.graph.routes).toEqual([]);
    expect(plan.graph.held.map((h) => h.pattern)).toEqual(['/', '/*']);
  });

  it('refuses a rule whose backends have different probe settings', () => {
    const model = buildGateway({
      backends: [web, { ...api, probePath: '/other' }],
      routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }, { name: 'api' }] }] }],
    });
    const plan = planFrontDoor(model, options);
    expect(plan.problems.map((p) => p.code)).toEqual(['OriginGroupSettingsDiffer']);
    expect(plan.problems[0]?.message).toContain('different health probe settings');
    expect(plan.graph.routes).toEqual([]);
    expect(plan.graph.originGroups).toEqual([]);
  });

  it("withdrawal: a rule whose backends lost every origin keeps its route, pointed at the endpoint's sink group (one enabled origin that cannot resolve)", () => {
    const model = buildGateway({ backends: [web], routes: [{ name: 'r', rules: [{ backends: [{ name: 'web', weight: 0 }] }] }] });
    const { graph } = planFrontDoor(model, options);
    expect(model.routes[0]?.rules[0]?.withdrawn).toBe('AllBackendWeightsZero');
    expect(graph.routes).toHaveLength(1);
    expect(graph.routes[0]).toMatchObject({ withdrawn: true, originGroup: sinkOriginGroupName(graph.endpoint.ref.endpoint), forwardingProtocol: 'HttpOnly' });
    expect(graph.originGroups.map((g) => [g.ref.originGroup, g.healthProbe, g.backends])).toEqual([
      [sinkOriginGroupName(graph.endpoint.ref.endpoint), undefined, []],
    ]);
    expect(programmable(graph.origins).map((o) => [o.hostName, o.enabledState, o.weight])).toEqual([
      [`${graph.endpoint.ref.endpoint}.withdrawn.invalid`, 'Enabled', 1000],
    ]);
    expect(isWritable(planFrontDoor(model, options))).toBe(true);
  });

  it('a rule with no backends still gets its route, to the sink group; the sink is planned only when a rule needs it', () => {
    const { graph, problems } = planFrontDoor(buildGateway({ backends: [], routes: [{ name: 'r', rules: [{ backends: [] }] }] }), options);
    expect(problems).toEqual([]);
    expect(graph.routes[0]?.withdrawn).toBe(true);
    expect(graph.originGroups.map((g) => g.ref.originGroup)).toEqual([graph.routes[0]?.originGroup]);
    expect(graph.origins).toHaveLength(1);
    const served = planFrontDoor(buildGateway({ backends: [web], routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }] }), options).graph;
    expect(served.originGroups.map((g) => g.ref.originGroup)).not.toContain(sinkOriginGroupName(served.endpoint.ref.endpoint));
  });

  it('unknown member data and unissued request messages keep what is programmed', () => {
    const model = buildGateway({
      backends: [
        {
          name: 'web',
          clusters: [
            { name: 'member-1', privateLink: { requestMessage: null } },
            { name: 'member-2', unknown: true },
            { name: 'member-3', privateLink: { state: 'Approved' } },
          ],
        },
      ],
      routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }],
    });
    const origins = planFrontDoor(model, options).graph.origins;
    expect(Object.fromEntries(origins.map((o) => [o.cluster, o.keep ?? 'programmed']))).toEqual({
      'member-1': 'the Private Link request message for cluster member-1 (store/web:8080) has not been issued yet',
      'member-2': 'member data of cluster member-2 for store/web:8080 is unknown: the member marked its Azure data stale',
      'member-3': 'programmed',
    });
    const privateOrigin = programmable(origins)[0];
    expect(privateOrigin?.privateLink).toEqual({
      privateLinkId: '/subscriptions/00000000-0000-4000-8000-000000000001/resourceGroups/mc-member-3/providers/Microsoft.Network/privateLinkServices/pls-web',
      location: 'eastus2',
      requestMessage: 'fleet:member-3:web:request',
      memberState: 'Approved',
    });
  });

  it('an origin address AFD would refuse (not a domain name or IP address) keeps that origin as programmed; the others are planned', () => {
    const model = buildGateway({
      backends: [
        {
          name: 'web',
          clusters: [
            { name: 'member-1', address: 'bad host' },
            { name: 'member-2', address: 'a..example' },
            { name: 'member-3', address: 'fd00::4' },
            { name: 'member-4', address: 'web.member-4.example' },
          ],
        },
      ],
      routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }],
    });
    const plan = planFrontDoor(model, options);
    expect(Object.fromEntries(plan.graph.origins.map((o) => [o.cluster, o.keep ?? 'programmed']))).toEqual({
      'member-1': 'cluster member-1 reports address "bad host" for store/web:8080, which is neither a domain name nor an IP address',
      'member-2': 'cluster member-2 reports address "a..example" for store/web:8080, which is neither a domain name nor an IP address',
      'member-3': 'programmed',
      'member-4': 'programmed',
    });
    expect(plan.problems).toEqual([]);
    expect(isWritable(plan)).toBe(true);
  });

  it('header, method and query matches become a rule set: conditions, an origin group override, then stop', () => {
    const model = buildGateway({
      backends: [web, api],
      routes: [
        {
          name: 'r',
          rules: [
            {
              matches: [
                {
                  path: { type: 'PathPrefix', value: '/' },
                  method: 'POST',
                  headers: [{ name: 'x-canary', value: '1' }],
                  queryParams: [{ name: 'v', value: '2' }],
                },
              ],
              backends: [{ name: 'api' }],
            },
            { backends: [{ name: 'web' }], filters: [{ type: 'ResponseHeaderModifier', set: [{ name: 'x-served-by', value: 'web' }], add: [], remove: [] }] },
          ],
        },
      ],
    });
    const { graph, problems } = planFrontDoor(model, options);
    expect(problems).toEqual([]);
    expect(graph.routes).toHaveLength(1);
    const webGroup = graph.originGroups.find((g) => g.backends.includes('store/web:8080'));
    const apiGroup = graph.originGroups.find((g) => g.backends.includes('store/api:8080'));
    expect(graph.routes[0]?.originGroup).toBe(webGroup?.ref.originGroup);
    expect(graph.routes[0]?.ruleSets).toEqual([graph.ruleSets[0]?.ref.ruleSet]);
    expect(graph.rules.map((r) => ({ order: r.order, conditions: r.conditions, actions: r.actions, then: r.matchProcessingBehavior }))).toEqual([
      {
        order: 1,
        conditions: [
          { type: 'method', method: 'POST' },
          { type: 'header', name: 'x-canary', value: '1' },
          { type: 'query', name: 'v', value: '2' },
        ],
        actions: [{ type: 'originGroupOverride', originGroup: apiGroup?.ref.originGroup, forwardingProtocol: 'HttpOnly' }],
        then: 'Stop',
      },
      { order: 2, conditions: [], actions: [{ type: 'responseHeader', action: 'Overwrite', name: 'x-served-by', value: 'web' }], then: 'Continue' },
    ]);
  });

  it("a rule set over AFD's rules per rule set holds only the paths it decides, naming the rules past the limit; the rest is planned and writable", () => {
    const header = (path: string, value: string) => ({
      matches: [{ path: { type: 'PathPrefix' as const, value: path }, headers: [{ name: 'x-v', value }], queryParams: [] }],
      backends: [{ name: 'api' }],
    });
    const model = buildGateway({
      backends: [web, api],
      routes: [
        {
          name: 'crowded',
          rules: [
            header('/shop', '1'),
            header('/shop', '2'),
            header('/shop', '3'),
            { matches: [{ path: { type: 'PathPrefix', value: '/shop' }, headers: [], queryParams: [] }], backends: [{ name: 'web' }] },
          ],
        },
        {
          name: 'calm',
          rules: [
            header('/calm', '1'),
            { matches: [{ path: { type: 'PathPrefix', value: '/calm' }, headers: [], queryParams: [] }], backends: [{ name: 'web' }] },
          ],
        },
      ],
    });
    const plan = planFrontDoor(model, { ...options, capacityLimits: { rulesPerRuleSet: 2 } });
    expect(plan.problems.map((p) => [p.code, p.source?.name, p.source?.section, p.blocksWrites])).toEqual([['TooManyRules', 'crowded', 'rule/2', false]]);
    expect(plan.problems[0]?.message).toBe(
      'store/crowded rule/2: the matches deciding /shop, /shop/* would need 3 AFD rules in one rule set; AFD allows 2, so these paths keep what AFD serves now',
    );
    expect(plan.graph.held.map((h) => `${h.pattern} ${h.protocol}`)).toEqual(['/shop Http', '/shop/* Http']);
    expect(plan.graph.routes.flatMap((r) => r.patterns)).toEqual(['/calm', '/calm/*']);
    expect(plan.graph.rules.every((r) => r.provenance.every((s) => s.name === 'calm'))).toBe(true);
    expect(plan.capacity).toEqual([]);
    expect(isWritable(plan)).toBe(true);
    // Within the limit, the same Gateway plans the crowded path as usual.
    const roomy = planFrontDoor(model, options);
    expect(roomy.problems).toEqual([]);
    expect(roomy.graph.held).toEqual([]);
  });

  it('reports conditional matches with no unconditional fallback for the path (AFD cannot answer 404)', () => {
    const model = buildGateway({
      backends: [web],
      routes: [
        {
          name: 'r',
          rules: [
            { matches: [{ path: { type: 'PathPrefix', value: '/' }, headers: [{ name: 'x', value: '1' }], queryParams: [] }], backends: [{ name: 'web' }] },
          ],
        },
      ],
    });
    const plan = planFrontDoor(model, options);
    expect(plan.problems.map((p) => p.code)).toEqual(['NoUnconditionalFallback']);
    expect(plan.graph.routes).toEqual([]);
    expect(plan.graph.held.map((h) => h.pattern)).toEqual(['/', '/*']);
  });

  it('HTTP and HTTPS on the default domain share a route when they route alike', () => {
    const model = buildGateway({ protocols: ['HTTP', 'HTTPS'], backends: [web], routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }] });
    const { graph } = planFrontDoor(model, options);
    expect(graph.routes.map((r) => r.supportedProtocols)).toEqual([['Http', 'Https']]);
  });

  it('plans a security policy for an attached WAF policy, on the endpoint, for every path', () => {
    const wafPolicyId =
      '/subscriptions/00000000-0000-4000-8000-000000000001/resourceGroups/waf/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/edgePolicy';
    const { graph } = planFrontDoor(buildGateway({ wafPolicyId, backends: [web], routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }] }), options);
    expect(graph.securityPolicy).toMatchObject({ wafPolicyId, endpoints: [graph.endpoint.ref.endpoint] });
  });

  it('is deterministic: the same model gives the same plan', () => {
    const make = () =>
      buildGateway({
        backends: [web, api],
        routes: [
          {
            name: 'a',
            rules: [
              { paths: ['/a'], backends: [{ name: 'web' }] },
              { paths: ['/b'], backends: [{ name: 'api' }] },
            ],
          },
        ],
      });
    expect(planFrontDoor(make(), options)).toEqual(planFrontDoor(make(), options));
  });
});
