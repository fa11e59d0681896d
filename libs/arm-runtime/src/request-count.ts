import { ArmRateLimiter } from './rate-limiter.js';

/** The part of the SDK's raw response this count needs (core-client's `onResponse` callback receives it). */
interface AnsweredRequest {
  readonly request: { readonly method: string };
}

/**
 * ARM requests that one reconcile (or one step of it) issued and ARM answered, as the SDK reports them through the
 * operation option `onResponse`: every list page, GET, write and long-running-operation poll counts once; a request
 * the retry policy repeated counts once too (the shared rate limiter's stats count every attempt of the process).
 */
export class ArmRequestCount {
  reads = 0;
  writes = 0;

  /** `parent` counts the same requests too (a reconcile's count over its steps). */
  constructor(private readonly parent?: ArmRequestCount) {}

  /** Pass as the `onResponse` operation option of every SDK call to be counted. */
  readonly onResponse = (raw: AnsweredRequest): void => {
    this[ArmRateLimiter.classify(raw.request.method)] += 1;
    this.parent?.onResponse(raw);
  };
}
