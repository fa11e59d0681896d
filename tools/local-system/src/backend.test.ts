import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parseBackendRequest, serviceAddress } from './backend.js';

const flags = { cluster: 'member-1', service: 'shop/web', port: '80', target: '127.0.0.1:8080' };

describe('parseBackendRequest', () => {
  it('takes a member, a Service, its port and a host:port target', () => {
    expect(parseBackendRequest(flags)).toEqual({ cluster: 'member-1', namespace: 'shop', name: 'web', port: 80, target: { host: '127.0.0.1', port: 8080 } });
    expect(parseBackendRequest({ ...flags, target: 'localhost:9000' }).target).toEqual({ host: 'localhost', port: 9000 });
  });

  it.each([
    [{ cluster: undefined }, '--cluster is required: the member cluster the Service is in, e.g. --cluster member-1'],
    [{ service: 'web' }, '--service must be <namespace>/<name>, got "web"'],
    [{ service: 'shop/web/x' }, '--service must be <namespace>/<name>, got "shop/web/x"'],
    [{ port: '0' }, '--port must be the Service\'s port, a number from 1 to 65535, got "0"'],
    [{ port: 'http' }, '--port must be the Service\'s port, a number from 1 to 65535, got "http"'],
    [{ target: '8080' }, '--target must be <host>:<port> of your backend, e.g. 127.0.0.1:8080, got "8080"'],
    [{ target: '127.0.0.1:70000' }, '--target must be <host>:<port> of your backend, e.g. 127.0.0.1:8080, got "127.0.0.1:70000"'],
  ])('refuses %j naming the flag, the value and what is expected', (override, message) => {
    expect(() => parseBackendRequest({ ...flags, ...override })).toThrow(message);
  });
});

describe('serviceAddress', () => {
  const request = parseBackendRequest(flags);
  const service = (spec: V1Service['spec'], ip?: string): V1Service => ({ spec, status: { loadBalancer: { ingress: ip ? [{ ip }] : [] } } });

  it("is the Service's load balancer address", () => {
    expect(serviceAddress(service({ type: 'LoadBalancer', ports: [{ port: 80 }] }, '10.224.0.7'), request)).toBe('10.224.0.7');
  });

  it('has none before the stand-in gave the Service its address', () => {
    expect(serviceAddress(service({ type: 'LoadBalancer', ports: [{ port: 80 }] }), request)).toBeUndefined();
  });

  it('refuses a Service the edge cannot reach and a port it does not have', () => {
    expect(() => serviceAddress(service({ type: 'ClusterIP', ports: [{ port: 80 }] }), request)).toThrow(
      'Service shop/web in member-1 is of type ClusterIP; only a LoadBalancer Service gets an address the edge can reach',
    );
    expect(() => serviceAddress(service({ type: 'LoadBalancer', ports: [{ port: 443 }] }, '10.224.0.7'), request)).toThrow(
      'Service shop/web in member-1 has no port 80 (its ports: 443)',
    );
  });
});
