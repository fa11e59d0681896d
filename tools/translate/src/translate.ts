import { hubIdentityOf, planFrontDoor, type FrontDoorScope } from '@fleet-gateway/azure-frontdoor';
import { HubInputsError, readHubInputs, resolveGateway, type HubInputs, type ResolveResult } from '@fleet-gateway/model';
import { stringify } from 'yaml';
import { reportPlan } from './plan-report.js';

export const SECTIONS = ['model', 'verdicts', 'plan'] as const;
export type Section = (typeof SECTIONS)[number];
export const OUTPUT_FORMATS = ['yaml', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface TranslateOptions {
  readonly output: OutputFormat;
  /** Sections to print, always in the order of SECTIONS whatever order they were asked in. */
  readonly show: readonly Section[];
  /** Where the hub would put the profile: ARM ids of the plan, and with hubName the hub identity in the ownership tags. */
  readonly scope: FrontDoorScope;
  /** The hub cluster's name (the hub agent's --hub-name). */
  readonly hubName: string;
}

export interface TranslateResult {
  /** The report (exit code 0) or a one-line error (exit code 2). */
  readonly output: string;
  readonly exitCode: 0 | 2;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** The YAML parser's message without the excerpt of the source it appends after a blank line. */
function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).trim().replace(/:$/, '');
}

function readInputs(text: string): { inputs: HubInputs } | { error: string } {
  try {
    return { inputs: readHubInputs(text) };
  } catch (error) {
    // readHubInputs names each malformed field; anything else it throws is the YAML parser's (with line and column).
    if (error instanceof HubInputsError) return { error: error.message };
    return { error: `input is not valid YAML: ${firstLine((error as Error).message)}` };
  }
}

/** readHubInputs checks the bundle's shape only; a field deeper inside an object that has the wrong type makes resolve throw. */
function resolveInputs(inputs: HubInputs): { result: ResolveResult } | { error: string } {
  try {
    return { result: resolveGateway(inputs) };
  } catch (error) {
    return {
      error: `invalid HubInputs: a field inside one of the objects has the wrong type (${oneLine((error as Error).message)}); expected objects valid against the Gateway API and Fleet CRD schemas`,
    };
  }
}

/**
 * The hub's pure pipeline, offline: HubInputs YAML -> resolveGateway -> (when a model results) planFrontDoor with the
 * hub's options -> the selected sections as YAML or JSON. No I/O.
 */
export function translate(inputsYaml: string, options: TranslateOptions): TranslateResult {
  const read = readInputs(inputsYaml);
  if ('error' in read) return { output: read.error, exitCode: 2 };
  const resolved = resolveInputs(read.inputs);
  if ('error' in resolved) return { output: resolved.error, exitCode: 2 };
  const { model, verdicts } = resolved.result;
  const plan = model
    ? reportPlan(
        planFrontDoor(model, { hubIdentity: hubIdentityOf({ subscriptionId: options.scope.subscriptionId, hubName: options.hubName }) }),
        options.scope,
      )
    : null;
  const sections: Record<Section, unknown> = { model: model ?? null, verdicts, plan };
  const report = Object.fromEntries(SECTIONS.filter((s) => options.show.includes(s)).map((s) => [s, sections[s]]));
  const output = options.output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : stringify(report, { lineWidth: 0, aliasDuplicateObjects: false });
  return { output, exitCode: 0 };
}
