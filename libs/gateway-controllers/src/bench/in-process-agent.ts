/**
 * The hub agent as apps/hub-gateway wires it (libs/fleet-hub's controllers with the Fleet CRD prerequisite, the
 * GatewayClass and Gateway controllers, one Manager serving /readyz and /metrics), with --enable-afd=false and no
 * leader election: what memory-bench.ts measures until the bundle (dist/apps/hub-gateway/main.mjs) is on main. The
 * libs resolve through tsconfig paths, so it runs under tsx:
 *
 *   node --import tsx libs/gateway-controllers/src/bench/in-process-agent.ts --kubeconfig FILE --health-port N
 */
import { parseArgs } from 'node:util';
import { ControllerMetrics, createLogger, EventRecorder, KubeClient, Manager } from '@fleet-gateway/controller';
import { FleetCrdPrerequisite, registerFleetHubControllers } from '@fleet-gateway/fleet-hub';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { registerGatewayClassController } from '../register-gateway-class-controller.js';
import { registerGatewayController } from '../register-gateway-controller.js';
import { DEFAULT_SKU } from '../test-support/hub-under-test.js';

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, 'health-port': { type: 'string' } } });
if (!values.kubeconfig || !values['health-port']) throw new Error('--kubeconfig FILE and --health-port N are required');

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(values.kubeconfig);
const logger = createLogger({ level: 'info' });
const client = new KubeClient(kubeConfig);
const registry = new Registry();
const metrics = new ControllerMetrics(registry);
const manager = new Manager({ logger, metrics, health: { host: '127.0.0.1', port: Number(values['health-port']) } });
const events = manager.addEventRecorder(new EventRecorder({ client, reportingController: 'networking.fleet.azure.com/hub-gateway', reportingInstance: 'memory-bench', logger }));
const prerequisite = new FleetCrdPrerequisite({ manager, client, logger, metrics });
const fleet = registerFleetHubControllers({ manager, client, events, logger, metrics, prerequisite });
const classes = registerGatewayClassController({ manager, client, logger, metrics });
registerGatewayController({
  manager,
  client,
  logger,
  events,
  metrics,
  registry,
  gatewayClasses: classes.gatewayClasses,
  serviceImports: fleet.serviceImports,
  internalServiceExports: fleet.internalServiceExports,
  defaultSku: DEFAULT_SKU,
  prerequisite,
});
await manager.start();
process.once('SIGTERM', () => void manager.shutdown('SIGTERM').then(() => process.exit(0)));
