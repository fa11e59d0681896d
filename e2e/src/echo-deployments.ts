import type { Manifest } from '@fleet-gateway/local-system';

type ServiceManifest = Manifest & {
  metadata: { name: string; namespace?: string };
  spec?: { selector?: Record<string, string>; ports?: { port: number; targetPort?: number | string }[] };
};

/**
 * Azure mode: real AKS has no echo backend behind a scenario's Services (the local stand-in answers for every
 * Service), so each Service of a member's manifests gets an echo Deployment in its namespace whose pods it selects,
 * listening on its first port's targetPort and naming the member. Throws for a Service that selects no pods or
 * whose targetPort is a name: no Deployment could serve it.
 */
export function echoDeploymentsFor(manifests: readonly Manifest[], member: string, image: string): Manifest[] {
  return manifests
    .filter((m): m is ServiceManifest => m.kind === 'Service' && m.apiVersion === 'v1')
    .map((service) => {
      const where = `Service ${service.metadata.namespace ?? 'default'}/${service.metadata.name}`;
      const selector = service.spec?.selector ?? {};
      if (Object.keys(selector).length === 0)
        throw new Error(`${where} has spec.selector ${JSON.stringify(service.spec?.selector)}; expected labels for its echo pods`);
      const [first] = service.spec?.ports ?? [];
      const port = first?.targetPort ?? first?.port;
      if (typeof port !== 'number') throw new Error(`${where} has spec.ports[0].targetPort ${JSON.stringify(port)}; expected a port number`);
      return {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: `echo-${service.metadata.name}`, namespace: service.metadata.namespace ?? 'default' },
        spec: {
          replicas: 1,
          selector: { matchLabels: selector },
          template: {
            metadata: { labels: selector },
            spec: {
              securityContext: { runAsNonRoot: true },
              containers: [
                {
                  name: 'echo',
                  image,
                  env: [
                    { name: 'ECHO_CLUSTER', value: member },
                    { name: 'ECHO_PORT', value: String(port) },
                  ],
                  ports: [{ containerPort: port }],
                  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
                },
              ],
            },
          },
        },
      } as Manifest;
    });
}
