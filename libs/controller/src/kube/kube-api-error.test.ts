import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { isKubeRequestFailure, KubeApiError } from './kube-api-error.js';
import { clientForLocalServer } from '../test-support/local-server-client.js';

describe('isKubeRequestFailure', () => {
  it('holds for an API server answer and for a server that cannot be reached, not for a bug', () => {
    expect(isKubeRequestFailure(new KubeApiError(409, 'Conflict', 'changed', 'PATCH', '/x'))).toBe(true);
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'])
      expect(isKubeRequestFailure(Object.assign(new Error(`connect ${code}`), { code }))).toBe(true);
    expect(isKubeRequestFailure(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(isKubeRequestFailure(Object.assign(new Error('bad'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBe(false);
    expect(isKubeRequestFailure(undefined)).toBe(false);
  });

  it('holds for a request that outran the client’s timeout (a hung connection)', async () => {
    const hung = http.createServer(() => {});
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    try {
      const error = await clientForLocalServer(hung, { requestTimeoutMs: 100 })
        .get('/api/v1/namespaces')
        .catch((e: unknown) => e);
      expect(isKubeRequestFailure(error), String(error)).toBe(true);
    } finally {
      hung.closeAllConnections();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
    }
  });
});
