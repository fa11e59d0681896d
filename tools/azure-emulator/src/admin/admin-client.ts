import type { CounterEntry } from './counters.js';
import type { Fault, FaultSpec } from './faults.js';

/** How long one admin request may take: the admin server answers from memory, so longer means the emulator is gone. */
const ADMIN_TIMEOUT_MS = 10_000;

/**
 * The admin API over HTTP (admin-server.ts), for a process that runs the emulator in another one (the CLI, as
 * `startEmulatorProcess` starts it): the same operations as EmulatorAdmin, each a request.
 */
export class EmulatorAdminClient {
  constructor(private readonly adminUrl: string) {}

  requestCounts(): Promise<CounterEntry[]> {
    return this.call('GET', '/counters');
  }

  async resetCounters(): Promise<void> {
    await this.call('DELETE', '/counters');
  }

  async createResourceGroup(spec: { subscriptionId: string; name: string; location?: string }): Promise<void> {
    await this.call('PUT', '/resource-groups', spec);
  }

  injectFault(spec: FaultSpec): Promise<Fault> {
    return this.call('POST', '/faults', spec);
  }

  listFaults(): Promise<Fault[]> {
    return this.call('GET', '/faults');
  }

  async clearFaults(): Promise<void> {
    await this.call('DELETE', '/faults');
  }

  private async call<T>(method: string, path: string, body?: object): Promise<T> {
    const response = await fetch(`${this.adminUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS),
    });
    const answer = (await response.json()) as T;
    if (!response.ok) throw new Error(`the emulator's admin API answered ${method} ${path} with ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  }
}
