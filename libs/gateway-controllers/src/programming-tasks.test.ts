import type { ReconcileReport } from '@fleet-gateway/azure-frontdoor';
import { describe, expect, it } from 'vitest';
import { ProgrammingTasks, type ProgrammingControl } from './programming-tasks.js';

const reportOf = (message: string) => ({ message }) as ReconcileReport;
const signal = new AbortController().signal;

/** A programming the test ends: it records what it saw of its fence when it ends. */
function held(log: string[], name: string) {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  const program = async (control: ProgrammingControl) => {
    log.push(`${name} started`);
    control.writing();
    await promise;
    log.push(`${name} ended${control.fence() ? ` fenced: ${control.fence()}` : ''}`);
    return reportOf(name);
  };
  return { program, end: () => resolve() };
}

describe('ProgrammingTasks', () => {
  it('joins the programming running for the same model, and hands its report once', async () => {
    const tasks = new ProgrammingTasks(() => 42);
    const log: string[] = [];
    const first = held(log, 'a');
    const started = tasks.start('ns/gw', 'h1', signal, first.program);
    const joined = tasks.start('ns/gw', 'h1', signal, held(log, 'never').program);
    expect(started.started).toBe(true);
    expect(joined).toEqual({ task: started.task, started: false });
    await Promise.resolve();
    expect(started.task.phase).toEqual({ kind: 'writing', since: 42 });
    expect(tasks.running).toBe(1);
    expect(tasks.takeEnded('ns/gw', 'h1')).toBeUndefined();
    first.end();
    await started.task.ended;
    expect(tasks.running).toBe(0);
    expect(tasks.takeEnded('ns/gw', 'h1')).toEqual(reportOf('a'));
    expect(tasks.takeEnded('ns/gw', 'h1')).toBeUndefined();
    expect(log).toEqual(['a started', 'a ended']);
  });

  it('tells a reconcile when the programming waits for Azure longer than the reconcile would, and not when it waits less', async () => {
    const clock = { now: 1_000 };
    const tasks = new ProgrammingTasks(() => clock.now);
    let control: ProgrammingControl | undefined;
    let end: () => void = () => undefined;
    const { task } = tasks.start('ns/gw', 'h1', signal, async (c) => {
      control = c;
      await new Promise<void>((done) => (end = done));
      return reportOf('a');
    });
    await Promise.resolve();
    const told: string[] = [];
    const reconcile = new AbortController();
    void task.waitsLongerThan(2_000, reconcile.signal).then(() => told.push('longer than 2 s'));
    const stopped = new AbortController();
    void task.waitsLongerThan(60_000, stopped.signal).then(() => told.push('longer than 60 s'));
    stopped.abort();
    control!.waitingOn(100);
    clock.now += 500;
    control!.waitingOn(1_400);
    await Promise.resolve();
    expect(told).toEqual([]);
    control!.waitingOn(10_000);
    await Promise.resolve();
    expect(told).toEqual(['longer than 2 s']);
    end();
    await task.ended;
  });

  it('a newer model fences the running programming and starts only when it has ended; one replaced before it started never runs', async () => {
    const tasks = new ProgrammingTasks();
    const log: string[] = [];
    const [a, b, c] = [held(log, 'a'), held(log, 'b'), held(log, 'c')];
    const first = tasks.start('ns/gw', 'h1', signal, a.program).task;
    await Promise.resolve();
    const second = tasks.start('ns/gw', 'h2', signal, b.program).task;
    expect(second.phase).toEqual({ kind: 'waiting' });
    const third = tasks.start('ns/gw', 'h3', signal, c.program).task;
    expect(tasks.running).toBe(1);
    a.end();
    await first.ended;
    await second.ended;
    c.end();
    await third.ended;
    expect(log).toEqual(['a started', 'a ended fenced: a newer model of the Gateway replaces the one being programmed', 'c started', 'c ended']);
    // An ended programming of another model is not this model's report.
    expect(tasks.takeEnded('ns/gw', 'h1')).toBeUndefined();
    expect(tasks.takeEnded('ns/gw', 'h3')).toBeUndefined();
  });

  it('stop fences the running programming (the Gateway is being deleted); a programming that threw hands its error', async () => {
    const tasks = new ProgrammingTasks();
    const log: string[] = [];
    const a = held(log, 'a');
    const running = tasks.start('ns/gw', 'h1', signal, a.program).task;
    await Promise.resolve();
    expect(tasks.stop('ns/gw', 'the Gateway is being deleted')).toBe(running);
    // Still running: not forgotten.
    tasks.forget('ns/gw');
    expect(tasks.running).toBe(1);
    a.end();
    await running.ended;
    expect(log).toEqual(['a started', 'a ended fenced: the Gateway is being deleted']);
    tasks.forget('ns/gw');
    expect(tasks.takeEnded('ns/gw', 'h1')).toBeUndefined();

    const failing = tasks.start('ns/other', 'h1', signal, async () => {
      throw new Error('the finalizer could not be added');
    }).task;
    await failing.ended;
    expect(() => tasks.takeEnded('ns/other', 'h1')).toThrow('the finalizer could not be added');
  });
});
