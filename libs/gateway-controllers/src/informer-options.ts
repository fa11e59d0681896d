import type { ControllerMetrics, KubeClient, Logger } from '@fleet-gateway/controller';

export interface SharedInformerSettings {
  readonly client: KubeClient;
  readonly logger: Logger;
  readonly metrics?: ControllerMetrics;
  /** Tests shorten the resync. */
  readonly resyncPeriodMs?: number;
}

/** The options every informer of the hub's Gateway API controllers takes, without the unset ones. */
export function informerSettings(options: SharedInformerSettings) {
  return {
    client: options.client,
    logger: options.logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.resyncPeriodMs === undefined ? {} : { resyncPeriodMs: options.resyncPeriodMs }),
  };
}
