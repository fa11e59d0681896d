import { createHash } from 'node:crypto';
import type { GlobalGateway } from './model-types.js';

/**
 * A stable content hash of a normalized model (sha256 of its JSON), for "did the desired state change?" checks.
 * normalize() fixes every key order and list order, so equal models hash equally however they were produced.
 */
export function modelHash(model: GlobalGateway): string {
  return createHash('sha256').update(JSON.stringify(model)).digest('hex');
}
