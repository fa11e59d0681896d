import type { ControllerMetrics, KubeClient, Logger } from '@fleet-gateway/controller';

export interface SharedInformerSettings {
  readonly client: KubeClient;
  readonly logger: Logger;
  readonly metrics?: ControllerMetrics;
  /** Informer timings (tests shorten the resync). */
  readonly resyncPeriodMs?: number;
  /** Deep-freeze the cached objects (InformerOptions.freezeObjects). Default on. */
  readonly freezeObjects?: boolean;
}

/** The options every informer of the hub's Gateway API controllers takes, without the unset ones. */
export function informerSettings(options: SharedInformerSettings) {
  return {
    client: options.client,
    logger: options.logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.resyncPeriodMs === undefined ? {} : { resyncPeriodMs: options.resyncPeriodMs }),
    ...(options.freezeObjects === undefined ? {} : { freezeObjects: options.freezeObjects }),
  };
}
