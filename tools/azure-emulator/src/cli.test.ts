import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCli } from './cli-options.js';
import { RawArmClient } from './raw-arm-client.js';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx/cli');

describe('CLI options', () => {
  it('parses flags into emulator options', () => {
    expect(parseCli(['--lro-delay-ms', '0', '--deployment', 'stuck', '--no-throttling', '--edge-delays', '0, 50'])).toMatchObject({
      help: false,
      options: { lroDelayMs: 0, deployment: 'stuck', throttling: false, edge: { propagationDelaysMs: [0, 50] } },
    });
    expect(parseCli(['--no-network-throttling'])).toMatchObject({ options: { throttling: { network: false } } });
    expect(parseCli(['--arm-authentication', 'issued-tokens', '--identity-port', '0'])).toMatchObject({
      options: { armAuthentication: 'issued-tokens', identityPort: 0 },
    });
    expect(parseCli(['--operation-timings', 'azure', '--operation-timing-seed', '7'])).toMatchObject({
      options: { operationTimings: 'azure', operationTimingSeed: 7 },
    });
    expect(parseCli([])).toMatchObject({ options: { operationTimings: 'fast', operationTimingSeed: 1 } });
    expect(parseCli(['--help'])).toEqual({ help: true });
  });

  it('names the flag, the value and what is expected', () => {
    expect(() => parseCli(['--arm-port', 'eighty'])).toThrow("--arm-port must be an integer >= 0; got 'eighty'.");
    expect(() => parseCli(['--deployment', 'later'])).toThrow("--deployment must be one of azure, watchable, fast, stuck; got 'later'.");
    expect(() => parseCli(['--arm-authentication', 'none'])).toThrow("--arm-authentication must be one of any-bearer, issued-tokens; got 'none'.");
    expect(() => parseCli(['--operation-timings', 'slow'])).toThrow("--operation-timings must be one of fast, azure; got 'slow'.");
    expect(() => parseCli(['--operation-timing-seed', 'x'])).toThrow("--operation-timing-seed must be an integer >= 0; got 'x'.");
    expect(() => parseCli(['--bogus'])).toThrow(/bogus/);
  });
});

describe('CLI process', () => {
  it('runs standalone, prints its endpoints as JSON, serves ARM with the CA it wrote, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [TSX, CLI, '--lro-delay-ms', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('\n')) resolve(output.split('\n')[0] as string);
      });
      child.once('exit', (code) => reject(new Error(`CLI exited early with ${code}`)));
    });
    const printed = JSON.parse(line) as {
      armEndpoint: string;
      caCertificatePath: string;
      edgeUrl: string;
      edgeTlsUrl: string;
      adminUrl: string;
      identityEndpoint: string;
      identityHeader: string;
    };
    expect(printed.edgeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(printed.edgeTlsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(printed.edgeTlsUrl).port).not.toBe(new URL(printed.edgeUrl).port);
    const token = await fetch(`${printed.identityEndpoint}?api-version=2019-08-01&resource=https://management.azure.com`, {
      headers: { 'X-IDENTITY-HEADER': printed.identityHeader },
    });
    expect(token.status).toBe(200);
    const client = new RawArmClient(printed.armEndpoint, await readFile(printed.caCertificatePath, 'utf8'));
    try {
      const missing = await client.send('GET', '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Cdn/profiles?api-version=2024-02-01');
      expect(missing).toMatchObject({ status: 404, body: { error: { code: 'ResourceGroupNotFound' } } });
      const group = await client.send('PUT', '/subscriptions/s/resourcegroups/rg?api-version=2021-04-01', { location: 'eastus' });
      expect(group).toMatchObject({ status: 201, body: { id: '/subscriptions/s/resourceGroups/rg', type: 'Microsoft.Resources/resourceGroups' } });
      const list = await client.send('GET', '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Cdn/profiles?api-version=2024-02-01');
      expect(list).toMatchObject({ status: 200, body: { value: [] } });
      const admin = await fetch(`${printed.adminUrl}/counters`).then((response) => response.json());
      expect(admin).toEqual(
        expect.arrayContaining([
          { method: 'GET', resourceType: 'Microsoft.Cdn/profiles', status: 404, count: 1 },
          { method: 'PUT', resourceType: 'Microsoft.Resources/resourceGroups', status: 201, count: 1 },
          { method: 'GET', resourceType: 'Microsoft.Cdn/profiles', status: 200, count: 1 },
        ]),
      );
    } finally {
      client.close();
    }
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);
});
