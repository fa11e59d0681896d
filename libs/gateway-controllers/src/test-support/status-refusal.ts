import { collectionPath, objectPath, type KubeClient } from '@fleet-gateway/controller';
import { eventually } from '@fleet-gateway/controller/test-support';

/**
 * Test-only: a ValidatingAdmissionPolicy (and its binding) refusing every status update of one object, as a cluster's
 * admission control may; the hub must write every other object's status and program Azure meanwhile.
 */
const GROUP = { group: 'admissionregistration.k8s.io', version: 'v1', namespaced: false } as const;
const POLICIES = { ...GROUP, kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies' };
const BINDINGS = { ...GROUP, kind: 'ValidatingAdmissionPolicyBinding', plural: 'validatingadmissionpolicybindings' };

const policyName = (object: string) => `freeze-${object}-status`;

/** Refuses every status update of the object `object` of `resource` (e.g. `httproutes` of `gateway.networking.k8s.io`). */
export async function refuseStatus(client: KubeClient, apiGroup: string, resource: string, object: string): Promise<void> {
  const name = policyName(object);
  await client.create(collectionPath(POLICIES), {
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [apiGroup], apiVersions: ['*'], operations: ['UPDATE'], resources: [`${resource}/status`] }] },
      validations: [{ expression: `object.metadata.name != '${object}'`, message: `the status of ${resource} ${object} is frozen`, reason: 'Forbidden' }],
    },
  });
  await client.create(collectionPath(BINDINGS), { metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } });
}

/** Lifts `refuseStatus` for `object`. */
export async function allowStatus(client: KubeClient, object: string): Promise<void> {
  await client.delete(objectPath(BINDINGS, policyName(object)));
  await client.delete(objectPath(POLICIES, policyName(object)));
}

/**
 * Resolves once the API server enforces (or no longer enforces) the policy, which it loads asynchronously: a status
 * write through `statusPath` is refused with 403 (or taken). `status` is the merge patch sent: one the schema takes
 * (schema validation runs before the policy; an HTTPRoute without a status needs `{ parents: [] }`).
 */
export async function whenStatusRefused(client: KubeClient, statusPath: string, refused = true, status: object = {}): Promise<unknown> {
  const attempt = () =>
    client.patch(statusPath, { status }, 'merge').then(
      () => undefined,
      (error: unknown) => error,
    );
  return eventually(attempt, (error) => ((error as { statusCode?: number } | undefined)?.statusCode === 403) === refused, 30_000);
}
