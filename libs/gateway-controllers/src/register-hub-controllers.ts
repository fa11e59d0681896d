import type { Sku } from '@fleet-gateway/annotations';
import type { CheckResult, EventRecorder, Manager } from '@fleet-gateway/controller';
import { registerFleetHubControllers, type FleetHubControllers } from '@fleet-gateway/fleet-hub';
import type { Registry } from 'prom-client';
import type { AzureFrontDoorAccess } from './gateway-reconciler.js';
import { informerSettings, type SharedInformerSettings } from './informer-options.js';
import { registerGatewayClassController, type GatewayClassControllers } from './register-gateway-class-controller.js';
import { registerGatewayController, type GatewayControllers } from './register-gateway-controller.js';

export interface HubControllerOptions extends SharedInformerSettings {
  readonly manager: Manager;
  /** The agent's recorder, already added to the manager. */
  readonly events: EventRecorder;
  /** Where the Gateway gauges register (the agent's /metrics registry). */
  readonly registry?: Registry;
  readonly defaultSku: Sku;
  /** Absent with `--enable-afd=false`: no Azure client exists and nothing in Azure is touched. */
  readonly azure?: AzureFrontDoorAccess;
  /** The Fleet CRD prerequisite (FleetCrdPrerequisite): while it fails, Fleet and Gateway reconciles write nothing. */
  readonly prerequisite?: { check(): CheckResult };
  readonly newRequestMessage?: () => string;
  /** Whether the hub serves ListenerSets (servesKind of servedGatewayApi): only then are they watched. */
  readonly listenerSets?: boolean;
}

export interface HubControllers {
  readonly fleet: FleetHubControllers;
  readonly classes: GatewayClassControllers;
  readonly gateway: GatewayControllers;
}

/**
 * Registers on `manager` everything the hub agent reconciles: libs/fleet-hub's ServiceImport controller, the
 * GatewayClass controller and the Gateway controller, which reads the first two's informers (one cache of each kind).
 * apps/hub-gateway runs it with what its flags say; this library's real-API tests with their test timings.
 */
export function registerHubControllers(options: HubControllerOptions): HubControllers {
  const { manager, events, prerequisite } = options;
  const shared = { manager, ...informerSettings(options) };
  const fleet = registerFleetHubControllers({ ...shared, events, ...(prerequisite ? { prerequisite } : {}) });
  const classes = registerGatewayClassController(shared);
  const gateway = registerGatewayController({
    ...shared,
    events,
    ...(options.registry ? { registry: options.registry } : {}),
    gatewayClasses: classes.gatewayClasses,
    serviceImports: fleet.serviceImports,
    internalServiceExports: fleet.internalServiceExports,
    defaultSku: options.defaultSku,
    ...(options.azure ? { azure: options.azure } : {}),
    ...(prerequisite ? { prerequisite } : {}),
    ...(options.newRequestMessage ? { newRequestMessage: options.newRequestMessage } : {}),
    ...(options.listenerSets ? { listenerSets: true } : {}),
  });
  return { fleet, classes, gateway };
}
