import { start } from '@fleet-gateway/azure-emulator';
import { createFrontDoorClients } from '../clients/arm-clients.js';
import { diffFrontDoor } from '../diff/diff.js';
import { planFrontDoor } from '../plan/plan-front-door.js';
import { ArmRateLimiter } from '@fleet-gateway/arm-runtime';
import { reconcileFrontDoor } from '../apply/reconcile.js';
import { HUB_IDENTITY, readsCounted, reconcileOptions, stubCredential, TEST_SCOPE, writesCounted } from '../testing/emulator-harness.js';
import { largeGateway } from '../testing/gateway-builder.js';
import { observedFromGraph } from '../testing/observed-from-graph.js';

/**
 * Prints the provider's figures: ARM calls for a Gateway of 100 origins and 50 routes (cold create, steady state)
 * against the emulator with ARM's throttling on and this process's default rate limiter, and the median CPU time
 * of plan + diff for a 160-origin graph. Run: pnpm nx run azure-frontdoor:bench
 */
async function armCalls(): Promise<void> {
  const emulator = await start({ lroDelayMs: 0 });
  emulator.admin.createResourceGroup({ subscriptionId: TEST_SCOPE.subscriptionId, name: TEST_SCOPE.resourceGroup });
  try {
    const limiter = new ArmRateLimiter();
    const clients = createFrontDoorClients({
      credential: stubCredential,
      subscriptionId: TEST_SCOPE.subscriptionId,
      endpoint: emulator.armEndpoint,
      tlsOptions: { ca: emulator.caCertificate },
      rateLimiter: limiter,
    });
    const model = largeGateway(50, 2);
    const started = Date.now();
    const cold = await reconcileFrontDoor(clients, model, reconcileOptions({ pollIntervalMs: 100 }));
    const coldMs = Date.now() - started;
    const throttled = emulator.admin.requestTotal({ status: 429 });
    console.log(
      `Gateway: ${model.backends.length * 2} origins, ${model.routes.length} routes (${cold.resources.length} AFD resources), outcome ${cold.reason}`,
    );
    console.log(
      `cold create: ${writesCounted(emulator)} ARM writes (report: ${cold.writes}), ${readsCounted(emulator)} ARM reads (report: ${cold.reads}; long-running-operation polls included), ` +
        `${throttled} throttled by ARM, ${(coldMs / 1000).toFixed(1)} s wall, limiter waited ${(limiter.stats().waitedMs / 1000).toFixed(1)} s`,
    );
    emulator.admin.resetCounters();
    const steady = await reconcileFrontDoor(clients, model, reconcileOptions());
    const graph = planFrontDoor(model, { hubIdentity: HUB_IDENTITY }).graph;
    const formula = 6 + 1 + graph.originGroups.length + graph.ruleSets.length;
    console.log(
      `steady-state reconcile: ${readsCounted(emulator)} ARM reads (report: ${steady.reads}; 6 + E + G + S = ${formula}), ${writesCounted(emulator)} writes, outcome ${steady.reason}`,
    );
  } finally {
    await emulator.stop();
  }
}

function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function planAndDiffCpu(): void {
  const model = largeGateway(80, 2);
  const graph = planFrontDoor(model, { hubIdentity: HUB_IDENTITY }).graph;
  const observed = observedFromGraph(graph, TEST_SCOPE);
  const samples: number[] = [];
  for (let i = 0; i < 60; i++) {
    samples.push(
      cpuMs(() => {
        const plan = planFrontDoor(model, { hubIdentity: HUB_IDENTITY });
        diffFrontDoor(plan.graph, observed, TEST_SCOPE);
      }),
    );
  }
  const sorted = samples.slice(10).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `plan + diff, ${graph.origins.length} origins / ${graph.routes.length} routes: median CPU ${median.toFixed(2)} ms over ${sorted.length} runs (target < 20 ms)`,
  );
}

planAndDiffCpu();
await armCalls();
