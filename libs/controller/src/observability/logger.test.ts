import { describe, expect, it } from 'vitest';
import { captureLogLines as capture, logsFlushed } from '../test-support/log-capture.js';
import { createLogger, reconcileLogger } from './logger.js';

describe('logger', () => {
  it('writes JSON lines with a timestamp and the fixed fields', async () => {
    const { stream, lines } = capture();
    const logger = createLogger({ stream, fields: { component: 'hub' } });
    logger.info('hello', { extra: 1 });
    await logsFlushed();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', message: 'hello', component: 'hub', extra: 1 });
    expect(typeof lines[0]?.timestamp).toBe('string');
  });

  it('gives each reconcile its own id on every line of its child logger', async () => {
    const { stream, lines } = capture();
    const parent = createLogger({ stream, level: 'debug' });
    const first = reconcileLogger(parent, { controller: 'gw', kind: 'Gateway', namespace: 'ns', name: 'a' });
    const second = reconcileLogger(parent, { controller: 'gw', kind: 'GatewayClass', name: 'b' });
    first.logger.info('one');
    first.logger.debug('two');
    second.logger.warn('three');
    await logsFlushed();
    expect(first.reconcileId).not.toBe(second.reconcileId);
    expect(lines.map((l) => l.reconcileId)).toEqual([first.reconcileId, first.reconcileId, second.reconcileId]);
    expect(lines[0]).toMatchObject({ controller: 'gw', kind: 'Gateway', namespace: 'ns', name: 'a' });
    expect(lines[2]).not.toHaveProperty('namespace');
  });

  it('builds no entry for a level that is off, and keeps the id on lines of levels that are on', async () => {
    const { stream, lines } = capture();
    const log = reconcileLogger(createLogger({ stream, level: 'info' }), { controller: 'gw', kind: 'Gateway', name: 'a' });
    let built = 0;
    log.log('debug', 'dropped', () => ({ built: ++built }));
    log.log('warn', 'kept', () => ({ built: ++built }));
    await logsFlushed();
    expect(built).toBe(1);
    expect(lines).toEqual([expect.objectContaining({ message: 'kept', level: 'warn', built: 1, reconcileId: log.reconcileId })]);
  });
});
