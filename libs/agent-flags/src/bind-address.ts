/** Where a server listens, from an address flag such as `:8082` (every interface) or `127.0.0.1:0` (a free port). */
export interface BindAddress {
  readonly host: string;
  readonly port: number;
}

const BIND_ADDRESS = /^([^:]*):(\d{1,5})$/;

/** `[host]:port`, as controller-runtime's address flags take it; undefined when the value is not one. */
export function parseBindAddress(value: string): BindAddress | undefined {
  const match = BIND_ADDRESS.exec(value);
  const port = Number(match?.[2]);
  if (match === null || port > 65535) return undefined;
  return { host: match[1] || '0.0.0.0', port };
}

/** The address of a flag that the agent's parser already checked; a bad value here is a programming error. */
export function checkedBindAddress(flag: string, value: string): BindAddress {
  const address = parseBindAddress(value);
  if (!address) throw new Error(`--${flag} has invalid value "${value}"`);
  return address;
}
