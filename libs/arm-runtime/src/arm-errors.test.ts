import { describe, expect, it } from 'vitest';
import { classifyArmError } from './arm-errors.js';

const rest = (statusCode: number, code: string, message: string) => Object.assign(new Error(message), { name: 'RestError', statusCode, code });

describe('ARM error classification', () => {
  it.each([
    [429, 'TooManyRequests', 'throttled', 'throttling'],
    [500, 'InternalServerError', 'transient', 'server'],
    [503, 'ServiceUnavailable', 'transient', 'server'],
    [409, 'Conflict', 'transient', 'conflict'],
    [403, 'AuthorizationFailed', 'terminal', 'authorization'],
    [401, 'InvalidAuthenticationToken', 'terminal', 'authorization'],
    [404, 'ResourceNotFound', 'terminal', 'not-found'],
    [400, 'BadRequest', 'terminal', 'validation'],
  ])('%i %s is %s (%s)', (status, code, klass, category) => {
    expect(classifyArmError(rest(status, code, 'Something happened.'))).toEqual({ class: klass, category, status, code, cause: 'Something happened.' });
  });

  it('recognizes quota errors by code or message', () => {
    expect(classifyArmError(rest(400, 'BadRequest', "Limit reached: origins per profile cannot exceed 100 for SKU 'Standard_AzureFrontDoor'.")).category).toBe(
      'quota',
    );
    expect(classifyArmError(rest(400, 'QuotaExceeded', 'No room.')).category).toBe('quota');
  });

  it('reads the code and cause of a failed long-running operation', () => {
    expect(classifyArmError(new Error('The long-running operation has failed. OriginGroupInvalid. The probe path is bad.'))).toEqual({
      class: 'terminal',
      category: 'operation-failed',
      code: 'OriginGroupInvalid',
      cause: 'the operation ended Failed: The probe path is bad.',
    });
    expect(classifyArmError(new Error('The long-running operation has failed. InternalServerError. Oops.')).class).toBe('transient');
  });

  it('network errors are transient; anything else is terminal with one line of cause', () => {
    expect(classifyArmError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toMatchObject({ class: 'transient', category: 'network' });
    expect(classifyArmError(new Error('first line\n    at stack frame'))).toEqual({
      class: 'terminal',
      category: 'unknown',
      code: 'Unknown',
      cause: 'first line at stack frame',
    });
  });
});
