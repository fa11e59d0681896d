import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import winston from 'winston';

export type Logger = winston.Logger;

export interface LoggerOptions {
  readonly level?: string;
  /** Where JSON lines go; standard output when omitted. */
  readonly stream?: Writable;
  /** Fields on every line, e.g. `{ component: 'hub-gateway' }`. */
  readonly fields?: Record<string, unknown>;
}

/** One JSON object per line with an ISO timestamp, as log collectors on Kubernetes expect. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const transport = options.stream
    ? new winston.transports.Stream({ stream: options.stream })
    : new winston.transports.Console();
  return winston.createLogger({
    level: options.level ?? 'info',
    format: winston.format.combine(winston.format.timestamp(), winston.format.errors(), winston.format.json()),
    defaultMeta: options.fields,
    transports: [transport],
  });
}

export interface ReconcileLogContext {
  readonly controller: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/**
 * A child logger for one reconcile: every line it writes carries the same reconcile id, so all lines of one pass
 * can be found together (controller-runtime's reconcileID habit).
 */
export function reconcileLogger(parent: Logger, context: ReconcileLogContext): { logger: Logger; reconcileId: string } {
  const reconcileId = randomUUID();
  const logger = parent.child({
    reconcileId,
    controller: context.controller,
    kind: context.kind,
    ...(context.namespace === undefined ? {} : { namespace: context.namespace }),
    name: context.name,
  });
  return { logger, reconcileId };
}

/** A logger that drops everything, for components whose caller did not ask for logs. */
export function silentLogger(): Logger {
  return winston.createLogger({ silent: true, transports: [new winston.transports.Console({ silent: true })] });
}
