import { isSku, type Sku } from '@fleet-gateway/annotations';
import { parseArgs } from 'node:util';
import type { HubConnection } from './read-hub.js';

export const COMMANDS = ['status', 'explain', 'graph', 'plan'] as const;
export type Command = (typeof COMMANDS)[number];

export const USAGE = `Usage: kubectl afd COMMAND [flags]

Commands:
  status GATEWAY                 the Gateway as a tree: listeners, routes, rules, backends, origins and their state

Flags:
  -n, --namespace NAMESPACE      the Gateway's namespace (default: the context's, else default)
      --context NAME             the kubeconfig context to use
      --kubeconfig PATH          the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)
  -o, --output FORMAT            text (default), json or yaml
      --default-afd-sku SKU      the hub's --default-afd-sku, for Gateways without an afd-sku annotation
                                 (default Standard_AzureFrontDoor)
  -h, --help                     this help
`;

export type OutputFormat = 'text' | 'json' | 'yaml';

export interface CliArgs extends HubConnection {
  readonly command: Command;
  readonly gateway: string;
  readonly output: OutputFormat;
  readonly defaultSku: Sku;
}

/** A usage error: the message names the argument, the value and what is expected. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const OUTPUTS: readonly OutputFormat[] = ['text', 'json', 'yaml'];

/** `kubectl afd` arguments (kubectl passes them after the plugin's name), or a UsageError; undefined for --help. */
export function parseCliArgs(argv: readonly string[]): CliArgs | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        namespace: { type: 'string', short: 'n' },
        context: { type: 'string' },
        kubeconfig: { type: 'string' },
        output: { type: 'string', short: 'o', default: 'text' },
        'default-afd-sku': { type: 'string', default: 'Standard_AzureFrontDoor' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  const [command, gateway, ...extra] = positionals;
  if (command === undefined) throw new UsageError(`a command is missing; expected one of ${COMMANDS.join(', ')}`);
  if (!(COMMANDS as readonly string[]).includes(command)) throw new UsageError(`command is "${command}"; expected one of ${COMMANDS.join(', ')}`);
  if (gateway === undefined) throw new UsageError(`${command} needs a GATEWAY name; expected kubectl afd ${command} GATEWAY`);
  if (extra.length > 0) throw new UsageError(`unexpected arguments ${extra.join(' ')}; expected kubectl afd ${command} GATEWAY [flags]`);
  if (!(OUTPUTS as readonly string[]).includes(values.output)) throw new UsageError(`--output is "${values.output}"; expected one of ${OUTPUTS.join(', ')}`);
  const sku = values['default-afd-sku'];
  if (!isSku(sku)) throw new UsageError(`--default-afd-sku is "${sku}"; expected Standard_AzureFrontDoor or Premium_AzureFrontDoor`);
  return {
    command: command as Command,
    gateway,
    output: values.output as OutputFormat,
    defaultSku: sku,
    ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
    ...(values.context !== undefined ? { context: values.context } : {}),
    ...(values.kubeconfig !== undefined ? { kubeconfig: values.kubeconfig } : {}),
  };
}
