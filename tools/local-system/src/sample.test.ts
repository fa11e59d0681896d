import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForEveryMember } from './sample.js';

// A stand-in edge answering as the echo backends do, from member-1 twice and then from member-2.
const answers = ['member-1', 'member-1', 'member-2'];
let served = 0;
const edge = createServer((_request, response) => {
  const cluster = answers[Math.min(served++, answers.length - 1)];
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ cluster }));
});
let edgeUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => edge.listen(0, '127.0.0.1', resolve));
  edgeUrl = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => edge.close(() => resolve())));

describe('waitForEveryMember', () => {
  it('returns once every member has answered, and its last progress line names them all', async () => {
    const lines: string[] = [];
    await waitForEveryMember(edgeUrl, 'web.example', ['member-1', 'member-2'], (line) => lines.push(line), 30_000);
    expect(served).toBe(3);
    expect(lines.at(-1)).toMatch(/^edge web\.example: answered by member-1, member-2 \(statuses 200×\d\)$/);
  });
});
