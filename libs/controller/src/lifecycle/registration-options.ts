import type { EventRecorder } from '../events/event-recorder.js';
import type { ControllerMetrics } from '../observability/controller-metrics.js';
import type { Logger } from '../observability/logger.js';
import type { Manager } from './manager.js';

/** What an agent's `register…Controllers` function takes besides its clients and its own settings. */
export interface ControllerRegistrationOptions {
  readonly manager: Manager;
  /** The agent's recorder (its reportingController and instance), already added to the manager. */
  readonly events: EventRecorder;
  readonly logger: Logger;
  readonly metrics?: ControllerMetrics;
  /** Different keys reconciled at once. */
  readonly concurrency?: number;
  readonly fieldManager?: string;
  /** Informer timings (tests shorten the resync). */
  readonly resyncPeriodMs?: number;
  /** Deep-freeze the informers' cached objects (InformerOptions.freezeObjects). Default on. */
  readonly freezeObjects?: boolean;
}
