import { checkResourceGroup, checkSubscriptionId, parseAgentArgs, renderFlagHelp, type FlagSpecs } from '@fleet-gateway/agent-flags';
import { OUTPUT_FORMATS, SECTIONS, type OutputFormat, type Section, type TranslateOptions } from './translate.js';

export const DEFAULT_SUBSCRIPTION_ID = '00000000-0000-0000-0000-000000000000';
export const DEFAULT_RESOURCE_GROUP = 'fleet-afd';
export const DEFAULT_HUB_NAME = 'hub';
const DEFAULT_SHOW: readonly Section[] = ['verdicts', 'plan'];

const FLAGS = {
  input: { type: 'string', default: '-', valueName: 'FILE|-', description: 'HubInputs YAML to read; - reads stdin' },
  output: { type: 'string', default: 'yaml', valueName: 'yaml|json', description: 'output format' },
  show: { type: 'string', default: DEFAULT_SHOW.join(','), valueName: 'LIST', description: 'comma-separated sections among model,verdicts,plan' },
  'subscription-id': {
    type: 'string',
    default: DEFAULT_SUBSCRIPTION_ID,
    valueName: 'GUID',
    description: 'subscription of the AFD profile, used in ARM ids and in the hub identity tag',
  },
  'resource-group': { type: 'string', default: DEFAULT_RESOURCE_GROUP, valueName: 'NAME', description: 'resource group of the AFD profile, used in ARM ids' },
  'hub-name': {
    type: 'string',
    default: DEFAULT_HUB_NAME,
    valueName: 'NAME',
    description: "the hub cluster's name (the hub agent's --hub-name): the hub identity tag is subscription/<GUID>/cluster/<NAME>",
  },
  help: { type: 'boolean', short: 'h', default: false, description: 'print this help' },
} as const satisfies FlagSpecs;

export const USAGE = `${renderFlagHelp(
  `Usage: pnpm exec tsx tools/translate/src/cli.ts [options]

Runs the hub's pure pipeline offline: HubInputs YAML (the libs/model testdata/*.in.yaml format) -> resolveGateway
-> planFrontDoor, and prints the verdicts (conditions per object), the planned AFD resources by kind and the plan's
problems. Nothing is read from a cluster and nothing is sent to Azure.`,
  FLAGS,
)}
Exit codes: 0 translated (problems, if any, are in the output); 2 bad flags or bad input (one line on stderr).
`;

export type CliArgs = { ok: true; help: true } | { ok: true; help: false; input: string; options: TranslateOptions } | { ok: false; error: string };

function readShow(value: string, errors: string[]): Section[] {
  const names = value.split(',').map((s) => s.trim());
  const unknown = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) errors.push(`--show has invalid value "${value}"; expected a comma-separated list of ${SECTIONS.join(', ')}`);
  return names.filter((n): n is Section => (SECTIONS as readonly string[]).includes(n));
}

/** Reads the command line; every problem is reported in one line naming the flag, the value and what is expected. */
export function parseCliArgs(argv: string[]): CliArgs {
  const parsed = parseAgentArgs(argv, FLAGS);
  if (!parsed.ok) return { ok: false, error: parsed.errors.join('; ') };
  const { values } = parsed;
  if (values.help) return { ok: true, help: true };
  const errors: string[] = [];
  if (!(OUTPUT_FORMATS as readonly string[]).includes(values.output)) {
    errors.push(`--output has invalid value "${values.output}"; expected one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  const show = readShow(values.show, errors);
  const subscriptionError = checkSubscriptionId('subscription-id', values['subscription-id']);
  if (subscriptionError) errors.push(subscriptionError);
  const resourceGroup = values['resource-group'];
  const resourceGroupError = checkResourceGroup('resource-group', resourceGroup);
  if (resourceGroupError) errors.push(resourceGroupError);
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };
  return {
    ok: true,
    help: false,
    input: values.input,
    options: {
      output: values.output as OutputFormat,
      show,
      scope: { subscriptionId: values['subscription-id'], resourceGroup },
      hubName: values['hub-name'],
    },
  };
}
