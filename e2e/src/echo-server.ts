/**
 * Azure mode's echo backend (the image e2e/azure/echo/Dockerfile builds): the local stand-in's echo server, answering
 * with the member cluster named by ECHO_CLUSTER, on ECHO_PORT of every interface (the pod's).
 */
import { startEchoBackend } from '@fleet-gateway/local-system';

const cluster = process.env['ECHO_CLUSTER'];
const port = Number(process.env['ECHO_PORT']);
if (!cluster || !Number.isInteger(port) || port <= 0 || port > 65_535) {
  process.stderr.write(
    `ECHO_CLUSTER="${cluster ?? ''}", ECHO_PORT="${process.env['ECHO_PORT'] ?? ''}": expected a member cluster name and a TCP port (1-65535)\n`,
  );
  process.exit(2);
}
const backend = await startEchoBackend(cluster, { host: '0.0.0.0', port });
process.stdout.write(`echo backend of ${cluster} listening on ${backend.host}:${backend.port}\n`);
