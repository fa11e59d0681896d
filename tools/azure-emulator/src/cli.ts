import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli, USAGE, type CliCommand } from './cli-options.js';
import { start } from './emulator.js';

async function main(): Promise<void> {
  let command: CliCommand;
  try {
    command = parseCli(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (command.help) {
    process.stdout.write(USAGE);
    return;
  }
  const emulator = await start(command.options);
  const caCertificatePath = command.caOut ?? join(tmpdir(), `azure-emulator-ca-${process.pid}.pem`);
  await writeFile(caCertificatePath, emulator.caCertificate);
  process.stdout.write(
    `${JSON.stringify({ armEndpoint: emulator.armEndpoint, caCertificatePath, edgeUrl: emulator.edgeUrl, edgeTlsUrl: emulator.edgeTlsUrl, adminUrl: emulator.admin.url, identityEndpoint: emulator.identityEndpoint, identityHeader: emulator.identityHeader })}\n`,
  );
  const shutdown = (): void => {
    const removeCa = command.caOut === undefined ? rm(caCertificatePath, { force: true }) : Promise.resolve();
    void Promise.all([emulator.stop(), removeCa]).then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

void main();
