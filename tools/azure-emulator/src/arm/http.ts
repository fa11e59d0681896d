import type { IncomingMessage, ServerResponse } from 'node:http';
import { ArmError } from './errors.js';

export interface ArmResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ArmError(413, 'RequestEntityTooLarge', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ArmError(400, 'InvalidRequestContent', `The request content was invalid and could not be deserialized: ${(error as Error).message}`);
  }
}

export function writeResponse(response: ServerResponse, armResponse: ArmResponse, extraHeaders: Record<string, string> = {}): void {
  const headers: Record<string, string> = { ...extraHeaders, ...armResponse.headers };
  if (armResponse.body === undefined) {
    headers['content-length'] = '0';
    response.writeHead(armResponse.status, headers);
    response.end();
    return;
  }
  const payload = JSON.stringify(armResponse.body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(payload));
  response.writeHead(armResponse.status, headers);
  response.end(payload);
}

export function errorResponse(error: ArmError): ArmResponse {
  return { status: error.status, body: error.toBody(), headers: error.headers };
}
