import type { TokenCredential } from '@azure/identity';
import type { ArmSend } from './assumption-checks.js';
import { AZURE_ARM_ENDPOINT } from './system-under-test.js';

/** ARM requests to management.azure.com with the credential's tokens (Azure mode: the operator's az login). */
export function publicArmSend(credential: TokenCredential): ArmSend {
  return async (method, pathAndQuery, body) => {
    const token = await credential.getToken(`${AZURE_ARM_ENDPOINT}/.default`);
    if (!token) throw new Error(`no token for ${AZURE_ARM_ENDPOINT}: run az login`);
    const response = await fetch(`${AZURE_ARM_ENDPOINT}${pathAndQuery}`, {
      method,
      headers: { authorization: `Bearer ${token.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
}
