import { start, type RunningEmulator } from '../emulator.js';
import type { EmulatorOptions } from '../options.js';
import { RawArmClient } from '../raw-arm-client.js';

export interface RawEmulator {
  emulator: RunningEmulator;
  /** A keep-alive HTTPS client that trusts the emulator's CA, for wire-level assertions. */
  client: RawArmClient;
  stop(): Promise<void>;
}

/** An emulator and a raw ARM client to it; `stop()` closes both. */
export async function startRawEmulator(options: EmulatorOptions): Promise<RawEmulator> {
  const emulator = await start(options);
  const client = new RawArmClient(emulator.armEndpoint, emulator.caCertificate);
  return {
    emulator,
    client,
    stop: async () => {
      client.close();
      await emulator.stop();
    },
  };
}
