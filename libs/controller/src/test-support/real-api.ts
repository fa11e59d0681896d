import type { Cluster } from '@fleet-gateway/control-plane';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import type { ResourceType } from '../kube/resource-type.js';
import { FreezableProxy } from './freezable-proxy.js';

export const configMaps: ResourceType = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

export interface ConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}

/** A FreezableProxy in front of `cluster`'s API server, and a client whose requests all go through it. */
export async function proxiedClient(cluster: Cluster): Promise<{ proxy: FreezableProxy; client: KubeClient }> {
  const { hostname, port } = new URL(cluster.server);
  const proxy = await FreezableProxy.start({ host: hostname, port: Number(port) });
  const kubeConfig = variantOf(cluster.kubeConfig(), { server: `https://127.0.0.1:${proxy.port}` });
  return { proxy, client: new KubeClient(kubeConfig) };
}

/** A KubeConfig like `base` whose requests impersonate `user` (the admin certificate may impersonate anyone). */
export function kubeConfigAs(base: KubeConfig, user: string): KubeConfig {
  return variantOf(base, { impersonateUser: user });
}

function variantOf(base: KubeConfig, change: { server?: string; impersonateUser?: string }): KubeConfig {
  const cluster = base.getCurrentCluster()!;
  const user = base.getCurrentUser()!;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ ...cluster, name: 'variant', server: change.server ?? cluster.server }],
    users: [{ ...user, ...(change.impersonateUser ? { impersonateUser: change.impersonateUser } : {}) }],
    contexts: [{ name: 'variant', cluster: 'variant', user: user.name }],
    currentContext: 'variant',
  });
  return kc;
}

export async function createNamespace(client: KubeClient, name: string): Promise<void> {
  await client.create('/api/v1/namespaces', { metadata: { name } });
}

/**
 * Polls `read` until `done` holds; for state that is only visible by asking the API server (no event to await).
 * Bounded by `timeoutMs`; returns the last value either way so the caller's assertion shows what was seen.
 */
export async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves with the first value `subscribe` delivers that satisfies `match`, or rejects after `timeoutMs`. */
export function nextMatching<E>(subscribe: (handler: (event: E) => void) => () => void, match: (event: E) => boolean, timeoutMs = 20_000): Promise<E> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no matching event within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = subscribe((event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}
