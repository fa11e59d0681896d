import type { CdnManagementClient } from '@azure/arm-cdn';
import { retryAfterMs, type ArmRequestCount } from '@fleet-gateway/arm-runtime';

// The SDK's request types, taken from the client so that no extra package is needed.
type OperationArguments = Parameters<CdnManagementClient['sendOperationRequest']>[0];
type OperationSpec = Parameters<CdnManagementClient['sendOperationRequest']>[1];
type RawResponse = Parameters<NonNullable<NonNullable<OperationArguments['options']>['onResponse']>>[0];

/** A resource as ARM answers it; provisioningState says whether its operation still runs. */
export type Written = { provisioningState?: string; deploymentStatus?: string } & object;

/** A request exactly as the SDK would send it: its arguments and its generated operation spec. */
interface SdkRequest {
  readonly args: OperationArguments;
  readonly spec: OperationSpec;
}

class Captured extends Error {
  constructor(readonly request: SdkRequest) {
    super('captured, not sent');
  }
}

// The generated operation groups (`cdn.routes`, …) send every request through `this.client.sendOperationRequest`.
// A view of a group whose client records instead of sending yields the SDK's own URL, api-version, body serializer
// and response mappers for any call, with no spec of ours to keep in step with the package.
const RECORDER = {
  sendOperationRequest(args: OperationArguments, spec: OperationSpec): never {
    throw new Captured({ args, spec });
  },
};

function recording(cdn: CdnManagementClient): CdnManagementClient {
  return new Proxy(cdn, {
    get(target, name) {
      const group: unknown = Reflect.get(target, name);
      return typeof group === 'object' && group !== null ? Object.create(group, { client: { value: RECORDER } }) : group;
    },
  });
}

async function capture(cdn: CdnManagementClient, call: (cdn: CdnManagementClient) => Promise<unknown>): Promise<SdkRequest> {
  try {
    await call(recording(cdn));
  } catch (error) {
    if (error instanceof Captured) return error.request;
    throw error;
  }
  throw new Error('the SDK call sent no request');
}

/** What ARM answered a write: the resource (PUT), and where and when to look at its long-running operation. */
export interface WriteAnswer {
  readonly status: number;
  readonly resource?: Written;
  /** The operation's Azure-AsyncOperation (else Location) URL, when ARM runs the write as a long-running operation. */
  readonly statusUrl?: string;
  /** ARM's Retry-After: no read before it can tell anything new. */
  readonly retryAfterMs?: number;
  /** The write's spec: its error mapper reads the operation status's failures as the SDK would. */
  readonly spec: OperationSpec;
}

export interface CallOptions {
  readonly abortSignal?: AbortSignal;
  readonly requests?: ArmRequestCount;
}

/**
 * Sends the request of an SDK write (`(c) => c.routes.beginCreate(…)`) once, through the client's pipeline (rate
 * limiter, retry, timeout, fence, metrics) and serializer, without the SDK's poller: the poller reads the operation
 * status at once after a 201 and then polls each write alone, reads that the follower spends only when they can tell
 * something (see `followOperations`). Throws what the SDK throws for a refused write.
 */
export async function sendWrite(cdn: CdnManagementClient, call: (cdn: CdnManagementClient) => Promise<unknown>, options: CallOptions): Promise<WriteAnswer> {
  const { args, spec } = await capture(cdn, call);
  let raw: RawResponse | undefined;
  const body = await cdn.sendOperationRequest<Written>(
    {
      ...args,
      options: {
        ...args.options,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        onResponse: (response) => {
          raw = response;
          options.requests?.onResponse(response);
        },
      },
    },
    spec,
  );
  const status = raw?.status ?? 200;
  const statusUrl = raw?.headers.get('azure-asyncoperation') ?? raw?.headers.get('location');
  const retryAfter = retryAfterMs(raw);
  const hasBody = raw?.parsedBody !== undefined && raw.parsedBody !== null && typeof raw.parsedBody === 'object';
  return {
    status,
    ...(hasBody ? { resource: body } : {}),
    ...(statusUrl ? { statusUrl } : {}),
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    spec,
  };
}

/** An operation status resource: `InProgress`, `Succeeded`, `Failed` or `Canceled`, and ARM's error when it failed. */
export interface OperationStatus {
  readonly status: string;
  readonly error?: { readonly code?: string; readonly message?: string };
}

/**
 * Reads a long-running operation's status resource through the client's pipeline; ARM's error answers throw as the
 * SDK's do (the write's error mapper). A Location URL answers 202 while the operation runs and the result after.
 */
export async function readOperationStatus(cdn: CdnManagementClient, url: string, write: OperationSpec, options: CallOptions): Promise<OperationStatus> {
  let raw: RawResponse | undefined;
  const spec: OperationSpec = {
    path: url,
    httpMethod: 'GET',
    responses: { 200: {}, 202: {}, 204: {}, ...(write.responses['default'] ? { default: write.responses['default'] } : {}) },
    serializer: write.serializer,
  };
  await cdn.sendOperationRequest(
    {
      options: {
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        onResponse: (response) => {
          raw = response;
          options.requests?.onResponse(response);
        },
      },
    },
    spec,
  );
  const body = (raw?.parsedBody ?? {}) as Partial<OperationStatus>;
  if (typeof body.status === 'string') return { status: body.status, ...(body.error ? { error: body.error } : {}) };
  return { status: raw?.status === 202 ? 'InProgress' : 'Succeeded' };
}
