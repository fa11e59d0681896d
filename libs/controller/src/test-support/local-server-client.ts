import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type KubeClientOptions } from '../kube/kube-client.js';

/**
 * A KubeClient for a plain-HTTP node:http server listening on 127.0.0.1: for tests of the client's own HTTP
 * behaviour (framing, retries, timeouts) that a real API server cannot be steered into.
 */
export function clientForLocalServer(server: http.Server, options: KubeClientOptions = {}): KubeClient {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'local', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
    users: [{ name: 'anyone' }],
    contexts: [{ name: 'local', cluster: 'local', user: 'anyone' }],
    currentContext: 'local',
  });
  return new KubeClient(kubeConfig, options);
}
