import type { KubeClient } from '@fleet-gateway/controller';

/** One request an identity might make, as RBAC sees it. */
export interface ResourceAttributes {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
}

/** `verb group/resource[/subresource] namespace`, the way the assertions list them. */
export const describeAccess = (a: ResourceAttributes): string =>
  `${a.verb} ${a.group || 'core'}/${a.resource}${a.subresource ? `/${a.subresource}` : ''}${a.namespace ? ` in ${a.namespace}` : ''}`;

/**
 * Whether the client's own identity may make the request, asked of the API server's authorizer (a
 * SelfSubjectAccessReview, which every authenticated identity may create): the answer RBAC gives, without making it.
 */
export async function mayI(client: KubeClient, attributes: ResourceAttributes): Promise<boolean> {
  const review = await client.create<{ status?: { allowed?: boolean } }>('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: attributes },
  });
  return review.status?.allowed === true;
}
