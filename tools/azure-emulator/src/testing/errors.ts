/** The parts of the SDK's RestError the tests look at (@azure/core-rest-pipeline is not a direct dependency). */
export interface SdkError {
  statusCode?: number;
  code?: string;
  message: string;
  response?: { headers: { get(name: string): string | undefined } };
}

/** Awaits a promise that must reject (with an SDK RestError) and returns the error. */
export async function restErrorOf(promise: Promise<unknown>): Promise<SdkError> {
  return promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: SdkError) => error,
  );
}
