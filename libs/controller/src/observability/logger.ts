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
  const transport = options.stream ? new winston.transports.Stream({ stream: options.stream }) : new winston.transports.Console();
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
 * The logger of one reconcile: every line it writes carries the same reconcile id, so all lines of one pass can be
 * found together (controller-runtime's reconcileID habit). The id and the child logger are made on first use, so a
 * reconcile that logs nothing costs neither a UUID nor a child logger.
 */
export class ReconcileLog {
  private id: string | undefined;
  private child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly context: ReconcileLogContext,
  ) {}

  get reconcileId(): string {
    return (this.id ??= randomUUID());
  }

  get logger(): Logger {
    const { controller, kind, namespace, name } = this.context;
    this.child ??= this.parent.child({
      reconcileId: this.reconcileId,
      controller,
      kind,
      ...(namespace === undefined ? {} : { namespace }),
      name,
    });
    return this.child;
  }

  /** Logs at `level` only when the parent would write it: no log entry is built for a level that is off. */
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: () => Record<string, unknown>): void {
    if (this.parent.isLevelEnabled(level)) this.logger.log(level, message, fields?.());
  }
}

/** The logger and id of one reconcile (see ReconcileLog). */
export function reconcileLogger(parent: Logger, context: ReconcileLogContext): ReconcileLog {
  return new ReconcileLog(parent, context);
}

/** A logger that drops everything, for components whose caller did not ask for logs. */
export function silentLogger(): Logger {
  return winston.createLogger({ silent: true, transports: [new winston.transports.Console({ silent: true })] });
}
