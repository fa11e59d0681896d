import { isSku, type Sku } from '@fleet-gateway/annotations';
import { parseArgs } from 'node:util';
import type { ExplainRequest } from './explain-request.js';
import type { AzureConnection } from './read-azure.js';
import type { HubConnection } from './read-hub.js';

export const COMMANDS = ['status', 'explain', 'graph', 'plan'] as const;
export type Command = (typeof COMMANDS)[number];

export const USAGE = `Usage: kubectl afd COMMAND [flags]

Commands:
  status GATEWAY                 the Gateway as a tree: listeners, routes, rules, backends, origins and their state
  explain GATEWAY --host H --path P [--method M] [--header K=V]... [--query K=V]... [--scheme http|https]
                                 which listener, route, rule, AFD route, rule-set rules and origins a request meets
                                 (without --scheme: HTTPS when a listener serves the host over it, else HTTP)
  graph GATEWAY [-o dot|mermaid|svg]
                                 the status tree and the planned AFD resources as a picture, coloured by state
                                 (svg needs Graphviz's dot on PATH)
  plan [GATEWAY] -f CHANGE.yaml  what applying the change (Gateway API and Fleet objects, one per YAML document) would
                                 do: each affected Gateway's refused or held objects and why, and the Azure writes
                                 (nothing is written): with Azure read, the hub's diff of the changed plan against the
                                 AFD resources Azure has; without, the writes between the current and changed plans

Azure (read only; optional): with these three flags, the hub's own values (its --azure-subscription-id,
--afd-resource-group and --hub-name; the chart's azure.subscriptionId, afd.resourceGroup and hubName), status and
graph add each AFD resource with its provisioningState and deploymentStatus, planned resources Azure lacks (missing)
and resources of the Gateway's profile the hub does not plan (extra), and plan compares with what Azure has. The
credential is DefaultAzureCredential's (AZURE_* environment, workload or managed identity, az login); reading needs
only the read actions on Microsoft.Cdn/profiles in the resource group. When Azure cannot be read, one line on stderr
says why and the hub's status alone is shown.
      --azure-subscription-id ID the subscription of the AFD profiles
      --afd-resource-group NAME  the resource group of the AFD profiles
      --hub-name NAME            the hub's --hub-name (its ownership tags name it)
      --arm-endpoint URL         a sovereign cloud's ARM endpoint, or the local emulator's (default: Azure public)
      --arm-ca-file PATH         PEM CA certificates to trust for ARM instead of the system's (the local emulator's)

Flags:
  -n, --namespace NAMESPACE      the Gateway's namespace (default: the context's, else default)
      --context NAME             the kubeconfig context to use
      --kubeconfig PATH          the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)
  -o, --output FORMAT            text (default), json or yaml; for graph: dot (default), mermaid, svg, json or yaml
      --default-afd-sku SKU      the hub's --default-afd-sku, for Gateways without an afd-sku annotation
                                 (default Standard_AzureFrontDoor)
  -h, --help                     this help
`;

export type OutputFormat = 'text' | 'json' | 'yaml' | 'dot' | 'mermaid' | 'svg';

export interface CliArgs extends HubConnection {
  /** Where to read the AFD profiles, when the Azure flags are given. */
  readonly azure?: AzureConnection;
  readonly command: Command;
  /** Optional for plan only: without it, every Gateway the change affects. */
  readonly gateway?: string;
  /** plan's change file. */
  readonly filename?: string;
  readonly output: OutputFormat;
  readonly defaultSku: Sku;
  /** explain's request. */
  readonly request?: ExplainRequest;
}

/** A usage error: the message names the argument, the value and what is expected. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const OUTPUTS: readonly OutputFormat[] = ['text', 'json', 'yaml'];
const GRAPH_OUTPUTS: readonly OutputFormat[] = ['dot', 'mermaid', 'svg', 'json', 'yaml'];

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
        output: { type: 'string', short: 'o' },
        'default-afd-sku': { type: 'string', default: 'Standard_AzureFrontDoor' },
        filename: { type: 'string', short: 'f' },
        host: { type: 'string' },
        path: { type: 'string', default: '/' },
        method: { type: 'string', default: 'GET' },
        header: { type: 'string', multiple: true, default: [] },
        query: { type: 'string', multiple: true, default: [] },
        scheme: { type: 'string' },
        'azure-subscription-id': { type: 'string' },
        'afd-resource-group': { type: 'string' },
        'hub-name': { type: 'string' },
        'arm-endpoint': { type: 'string' },
        'arm-ca-file': { type: 'string' },
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
  if (gateway === undefined && command !== 'plan') throw new UsageError(`${command} needs a GATEWAY name; expected kubectl afd ${command} GATEWAY`);
  if (command === 'plan' && values.filename === undefined) throw new UsageError('plan needs -f CHANGE.yaml; expected the file of the objects to apply');
  if (extra.length > 0) throw new UsageError(`unexpected arguments ${extra.join(' ')}; expected kubectl afd ${command} GATEWAY [flags]`);
  const outputs = command === 'graph' ? GRAPH_OUTPUTS : OUTPUTS;
  const output = values.output ?? outputs[0]!;
  if (!(outputs as readonly string[]).includes(output)) throw new UsageError(`--output is "${output}"; expected one of ${outputs.join(', ')}`);
  const sku = values['default-afd-sku'];
  if (!isSku(sku)) throw new UsageError(`--default-afd-sku is "${sku}"; expected Standard_AzureFrontDoor or Premium_AzureFrontDoor`);
  const azure = azureConnectionOf(values);
  return {
    ...(azure ? { azure } : {}),
    ...(command === 'explain' ? { request: explainRequestOf(values) } : {}),
    command: command as Command,
    ...(gateway !== undefined ? { gateway } : {}),
    ...(values.filename !== undefined ? { filename: values.filename } : {}),
    output: output as OutputFormat,
    defaultSku: sku,
    ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
    ...(values.context !== undefined ? { context: values.context } : {}),
    ...(values.kubeconfig !== undefined ? { kubeconfig: values.kubeconfig } : {}),
  };
}

const AZURE_FLAGS = ['azure-subscription-id', 'afd-resource-group', 'hub-name'] as const;

/** The Azure flags: all three of subscription, resource group and hub name, or none (the hub's status alone). */
function azureConnectionOf(values: Partial<Record<(typeof AZURE_FLAGS)[number] | 'arm-endpoint' | 'arm-ca-file', string>>): AzureConnection | undefined {
  const given = AZURE_FLAGS.filter((flag) => values[flag] !== undefined);
  const endpointOnly = values['arm-endpoint'] !== undefined || values['arm-ca-file'] !== undefined;
  if (given.length === 0) {
    if (endpointOnly)
      throw new UsageError(`--arm-endpoint and --arm-ca-file need ${AZURE_FLAGS.map((f) => `--${f}`).join(', ')}; expected all of them to read Azure`);
    return undefined;
  }
  const missing = AZURE_FLAGS.filter((flag) => values[flag] === undefined || values[flag] === '');
  if (missing.length > 0)
    throw new UsageError(
      `${missing.map((f) => `--${f}`).join(', ')} missing; expected ${AZURE_FLAGS.map((f) => `--${f}`).join(', ')} together to read Azure (the hub's own values)`,
    );
  const endpoint = values['arm-endpoint'];
  if (endpoint !== undefined && !URL.canParse(endpoint))
    throw new UsageError(`--arm-endpoint is "${endpoint}"; expected a URL such as https://management.usgovcloudapi.net`);
  return {
    subscriptionId: values['azure-subscription-id']!,
    resourceGroup: values['afd-resource-group']!,
    hubName: values['hub-name']!,
    ...(endpoint !== undefined ? { armEndpoint: endpoint } : {}),
    ...(values['arm-ca-file'] !== undefined ? { armCaFile: values['arm-ca-file'] } : {}),
  };
}

/** `K=V` pairs of --header and --query. */
function pairs(flag: string, values: readonly string[]): { name: string; value: string }[] {
  return values.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--${flag} is "${pair}"; expected NAME=VALUE`);
    return { name: pair.slice(0, at), value: pair.slice(at + 1) };
  });
}

function explainRequestOf(values: {
  host?: string | undefined;
  path: string;
  method: string;
  header: string[];
  query: string[];
  scheme?: string | undefined;
}): ExplainRequest {
  if (values.host === undefined) throw new UsageError('explain needs --host; expected the host name a client sends');
  if (!values.path.startsWith('/')) throw new UsageError(`--path is "${values.path}"; expected a path starting with /`);
  if (values.scheme !== undefined && values.scheme !== 'http' && values.scheme !== 'https')
    throw new UsageError(`--scheme is "${values.scheme}"; expected http or https`);
  return {
    ...(values.scheme !== undefined ? { scheme: values.scheme } : {}),
    host: values.host,
    path: values.path,
    method: values.method.toUpperCase(),
    headers: pairs('header', values.header),
    query: pairs('query', values.query),
  };
}
