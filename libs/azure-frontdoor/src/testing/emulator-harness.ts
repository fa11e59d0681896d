import { start, stubCredential, type RunningEmulator } from '@fleet-gateway/azure-emulator';
import type { GlobalGateway } from '@fleet-gateway/model';
import type { Registry } from 'prom-client';
import { afterEach, beforeEach } from 'vitest';
import { createFrontDoorClients, type FrontDoorClients } from '../clients/arm-clients.js';
import type { FrontDoorScope } from '../plan/afd-refs.js';
import type { RetryOptions } from '@fleet-gateway/arm-runtime';
import { ArmRateLimiter, type RateLimiterOptions } from '@fleet-gateway/arm-runtime';
import { reconcileFrontDoor, type ReconcileOptions } from '../apply/reconcile.js';
import type { ReconcileReport } from '../observe/report-types.js';

/** Test support: the Azure emulator with SDK clients wired the way the hub wires them. */
export const TEST_SCOPE: FrontDoorScope = { subscriptionId: '00000000-0000-4000-8000-000000000001', resourceGroup: 'fleet-afd' };

export { stubCredential };

export interface Harness {
  readonly emulator: RunningEmulator;
  readonly limiter: ArmRateLimiter;
  readonly clients: FrontDoorClients;
}

export interface HarnessOptions {
  readonly emulator?: Parameters<typeof start>[0];
  readonly limiter?: RateLimiterOptions;
  readonly retry?: RetryOptions;
  readonly metricsRegistry?: Registry;
  readonly writeFence?: () => string | undefined;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  // Private Link acts at once here: its timing is the emulator's subject, not the provider's.
  const emulator = await start({
    lroDelayMs: 0,
    ...options.emulator,
    privateLink: { connectionDelayMs: 0, approvalPropagationMs: 0, ...options.emulator?.privateLink },
  });
  emulator.admin.createResourceGroup({ subscriptionId: TEST_SCOPE.subscriptionId, name: TEST_SCOPE.resourceGroup });
  return { emulator, ...connectHarness(emulator, options) };
}

/**
 * The hub's SDK clients and limiter for an emulator already running (in this process or its own, the CLI's), wired as
 * startHarness wires them. The emulator must have TEST_SCOPE's resource group.
 */
export function connectHarness(
  emulator: { readonly armEndpoint: string; readonly caCertificate: string },
  options: Omit<HarnessOptions, 'emulator'> = {},
): Omit<Harness, 'emulator'> {
  const limiter = new ArmRateLimiter(
    options.limiter ?? { reads: { burst: 10_000, refillPerSecond: 10_000 }, writes: { burst: 10_000, refillPerSecond: 10_000 } },
  );
  const clients = createFrontDoorClients({
    credential: stubCredential,
    subscriptionId: TEST_SCOPE.subscriptionId,
    endpoint: emulator.armEndpoint,
    tlsOptions: { ca: emulator.caCertificate },
    rateLimiter: limiter,
    retry: { baseDelayMs: 1, maxDelayMs: 5, ...options.retry },
    ...(options.metricsRegistry ? { metricsRegistry: options.metricsRegistry } : {}),
    ...(options.writeFence ? { writeFence: options.writeFence } : {}),
  });
  return { limiter, clients };
}

/** The methods of an ARM write (what the emulator counts as one). */
export const WRITE_METHODS = ['PUT', 'PATCH', 'DELETE', 'POST'] as const;

/** Writes the emulator counted (PUT, PATCH, DELETE, POST), optionally of one resource type. */
export function writesCounted(emulator: RunningEmulator, resourceType?: string): number {
  return WRITE_METHODS.reduce((sum, method) => sum + emulator.admin.requestTotal({ method, ...(resourceType ? { resourceType } : {}) }), 0);
}

export function readsCounted(emulator: RunningEmulator, resourceType?: string): number {
  return emulator.admin.requestTotal({ method: 'GET', ...(resourceType ? { resourceType } : {}) });
}

export const HUB_IDENTITY = 'subscription/00000000-0000-4000-8000-000000000001/hub/test';

/** Reconcile options as the hub passes them, with fast polling for the emulator. */
export function reconcileOptions(extra: Partial<ReconcileOptions> = {}): ReconcileOptions {
  return { hubIdentity: HUB_IDENTITY, scope: TEST_SCOPE, pollIntervalMs: 5, ...extra };
}

export function reconcile(harness: Harness, model: GlobalGateway, extra: Partial<ReconcileOptions> = {}): Promise<ReconcileReport> {
  return reconcileFrontDoor(harness.clients, model, reconcileOptions(extra));
}

/** A fresh emulator and clients for every test of the calling file; read it through the returned getter. */
export function useHarness(options: HarnessOptions = {}): () => Harness {
  let harness: Harness | undefined;
  beforeEach(async () => {
    harness = await startHarness(options);
  });
  afterEach(async () => {
    await harness?.emulator.stop();
    harness = undefined;
  });
  return () => harness as Harness;
}
