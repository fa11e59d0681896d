import type { GatewayListener } from '@fleet-gateway/api-types';
import type { ListenerProtocol } from '../model/model-types.js';

/** The only protocol and port pairs the edge serves. */
export const SERVED_PORTS: Readonly<Record<ListenerProtocol, number>> = { HTTP: 80, HTTPS: 443 };

export function isServedProtocol(protocol: string): protocol is ListenerProtocol {
  return protocol === 'HTTP' || protocol === 'HTTPS';
}

/** A listener whose protocol and port could be programmed (its other settings aside). */
export function isServedListener(listener: GatewayListener): boolean {
  return isServedProtocol(listener.protocol) && SERVED_PORTS[listener.protocol] === listener.port;
}
