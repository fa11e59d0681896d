import { PassThrough } from 'node:stream';

/** A stream for createLogger that parses each JSON line it receives into `lines`. */
export function captureLogLines(): { stream: PassThrough; lines: Record<string, unknown>[] } {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { stream, lines };
}

/** winston writes asynchronously; this lets pending writes reach the stream. */
export const logsFlushed = () => new Promise((resolve) => setImmediate(resolve));
