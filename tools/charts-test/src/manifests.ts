import type { Manifest } from './helm.js';

/** The parts of the rendered objects the assertions read. */
export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Container {
  name: string;
  image?: string;
  args?: string[];
  env?: { name: string; value?: string }[];
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  ports?: { name: string; containerPort: number }[];
  securityContext?: Record<string, unknown>;
  resources?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

export interface PodTemplate {
  metadata: { labels?: Record<string, string> };
  spec: {
    serviceAccountName: string;
    securityContext?: Record<string, unknown>;
    containers: Container[];
    volumes?: { name: string; secret?: { secretName: string } }[];
  };
}

export const ofKind = (manifests: Manifest[], kind: string): Manifest[] => manifests.filter((m) => m.kind === kind);

export function only(manifests: Manifest[], kind: string): Manifest {
  const found = ofKind(manifests, kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, rendered ${found.length}`);
  return found[0]!;
}

/** The kind's object named `name`. */
export function named(manifests: Manifest[], kind: string, name: string): Manifest {
  const found = ofKind(manifests, kind).find((m) => m.metadata.name === name);
  if (!found) throw new Error(`expected a ${kind} named ${name}`);
  return found;
}

export const rulesOf = (role: Manifest): PolicyRule[] => (role['rules'] as PolicyRule[] | undefined) ?? [];
export const podTemplateOf = (deployment: Manifest): PodTemplate => (deployment['spec'] as { template: PodTemplate }).template;
export const containerOf = (deployment: Manifest): Container => {
  const containers = podTemplateOf(deployment).spec.containers;
  if (containers.length !== 1) throw new Error(`expected one container in ${deployment.metadata.name}`);
  return containers[0]!;
};

/** Whether any rule grants `verb` on `resource` of `group`. */
export function grants(rules: PolicyRule[], group: string, resource: string, verb: string): boolean {
  return rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));
}
