import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, RbacAuthorizationV1Api, type KubeConfig, type V1PolicyRule } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { renderKubeconfig } from './kubeconfig.js';

export const memberNamespace = (member: string): string => `fleet-member-${member}`;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The member agent's Role rules on the hub: the hub chart renders its per-member Role from the same file. */
const MEMBER_AGENT_HUB_RULES_FILE = path.join(repoRoot, 'charts/hub-gateway/files/member-agent-hub-rules.yaml');

/** What a member agent does on the hub: publish its InternalServiceExports and watch the hub's answers on them. */
export async function memberAgentHubRules(): Promise<V1PolicyRule[]> {
  return parse(await readFile(MEMBER_AGENT_HUB_RULES_FILE, 'utf8')) as V1PolicyRule[];
}

function isConflict(error: unknown): boolean {
  return (error as { code?: number }).code === 409;
}

async function createIfMissing(create: () => Promise<unknown>): Promise<void> {
  await create().catch((error: unknown) => {
    if (!isConflict(error)) throw error;
  });
}

export interface MemberHubCredentials {
  namespace: string;
  serviceAccount: string;
  token: string;
  kubeconfig: string;
}

/**
 * Creates, on the hub, the namespace fleet-member-<member>, a ServiceAccount in it bound by a Role to that
 * namespace only, and a bound token for it, rendered as a kubeconfig for the member agent.
 */
export async function createMemberHubCredentials(
  hub: KubeConfig,
  hubServer: string,
  hubCaCert: string,
  member: string,
  options: { rules?: V1PolicyRule[]; expirationSeconds?: number } = {},
): Promise<MemberHubCredentials> {
  const namespace = memberNamespace(member);
  const name = 'member-agent';
  const core = hub.makeApiClient(CoreV1Api);
  const rbac = hub.makeApiClient(RbacAuthorizationV1Api);
  const rules = options.rules ?? (await memberAgentHubRules());
  await createIfMissing(() => core.createNamespace({ body: { metadata: { name: namespace } } }));
  await createIfMissing(() => core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } }));
  await createIfMissing(() => rbac.createNamespacedRole({ namespace, body: { metadata: { name }, rules } }));
  await createIfMissing(() =>
    rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
        subjects: [{ kind: 'ServiceAccount', name, namespace }],
      },
    }),
  );
  const request = await core.createNamespacedServiceAccountToken({
    name,
    namespace,
    body: { spec: { audiences: [], expirationSeconds: options.expirationSeconds ?? 86_400 } },
  });
  const token = request.status?.token;
  if (!token) throw new Error(`the hub issued no token for ${namespace}/${name}`);
  const kubeconfig = renderKubeconfig({ cluster: 'hub', server: hubServer, caCert: hubCaCert, user: `member-${member}`, credentials: { token } });
  return { namespace, serviceAccount: name, token, kubeconfig };
}

export async function writeMemberHubKubeconfig(file: string, credentials: MemberHubCredentials): Promise<void> {
  await writeFile(file, credentials.kubeconfig, { mode: 0o600 });
}
