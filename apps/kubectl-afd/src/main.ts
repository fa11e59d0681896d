#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { planFrontDoor } from '@fleet-gateway/azure-frontdoor';
import { resolveGateway } from '@fleet-gateway/model';
import { stringify } from 'yaml';
import { parseCliArgs, USAGE, UsageError, type CliArgs } from './cli-args.js';
import { gatewayInputs, loadKubeConfig, namespaceOf, readHubObjects } from './read-hub.js';
import { renderTree } from './render-tree.js';
import { explainRequest } from './explain-request.js';
import { renderExplanation } from './render-explanation.js';
import { gatewayGraph } from './gateway-graph.js';
import { renderDot, renderMermaid } from './render-graph.js';
import { gatewayPlans, PLAN_OPTIONS, planChange, readChange, renderPlanChange, withChange } from './plan-change.js';
import { statusTree, type StatusNode } from './status-tree.js';
import { azureReader, type AzureReader } from './read-azure.js';
import type { AzureView } from './afd-resources.js';
import { afdTree } from './afd-tree.js';

function print(value: unknown, text: () => string, args: CliArgs): void {
  if (args.output === 'json') process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (args.output === 'yaml') process.stdout.write(stringify(value, { lineWidth: 0 }));
  else process.stdout.write(text());
}

// Graphviz lays out a Gateway's graph in well under a second; a minute means it is stuck.
const DOT_TIMEOUT_MS = 60_000;

/** SVG from Graphviz's `dot`, when it is on PATH. */
function renderSvg(dot: string): string {
  const run = spawnSync('dot', ['-Tsvg'], { input: dot, encoding: 'utf8', timeout: DOT_TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024 });
  if (run.error) {
    const missing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(missing ? '-o svg needs Graphviz (dot) on PATH; expected dot to be installed, or use -o dot' : `dot failed: ${run.error.message}`);
  }
  if (run.status !== 0) throw new Error(`dot failed (exit ${run.status}): ${run.stderr.trim()}`);
  return run.stdout;
}

/** Azure was asked for and could not be compared: one line on stderr, and the answer from the hub alone. */
function readable(view: AzureView, gateway: string): (AzureView & { read: true }) | undefined {
  if (view.read) return view;
  process.stderr.write(`kubectl-afd: Azure not read for Gateway ${gateway} (${view.reason}); answering from the hub alone\n`);
  return undefined;
}

/** kubectl afd: reads the hub and, with the Azure flags, ARM (never writes anywhere) and answers one command. */
async function main(argv: readonly string[]): Promise<number> {
  const args = parseCliArgs(argv);
  if (!args) {
    process.stdout.write(USAGE);
    return 0;
  }
  const kubeConfig = loadKubeConfig(args);
  const namespace = namespaceOf(kubeConfig, args);
  const azure: AzureReader | undefined = args.azure && (await azureReader(args.azure));
  const planOptions = azure ? { hubIdentity: azure.hubIdentity } : PLAN_OPTIONS;
  if (args.command === 'plan') {
    // The change is read first: a bad file is reported before the hub is asked anything.
    const text = await readFile(args.filename!, 'utf8').catch((error: Error) => {
      throw new UsageError(`-f is "${args.filename}", which cannot be read (${error.message}); expected a YAML file of the objects to apply`);
    });
    const change = readChange(text, namespace);
    const objects = await readHubObjects(kubeConfig);
    const plans = gatewayPlans(objects, withChange(objects, change), args.defaultSku, planOptions, args.gateway && `${namespace}/${args.gateway}`);
    const views = new Map<string, AzureView>();
    if (azure) {
      for (const { gateway, after } of plans) {
        if (!after) continue;
        const view = readable(await azure.compare(after.plan, after.gateway), gateway);
        if (view) views.set(gateway, view);
      }
    }
    const changes = planChange(plans, views);
    print(changes, () => renderPlanChange(changes), args);
    return 0;
  }
  const objects = await readHubObjects(kubeConfig);
  const gateway = args.gateway!;
  const inputs = gatewayInputs(objects, namespace, gateway, args.defaultSku);
  const result = resolveGateway(inputs);
  const plan = result.model && planFrontDoor(result.model, planOptions);
  const name = `${namespace}/${gateway}`;
  let view: (AzureView & { read: true }) | undefined;
  if (azure && args.command !== 'explain') {
    view =
      result.model && plan
        ? readable(await azure.compare(plan, result.model.gateway), name)
        : readable({ read: false, reason: 'it has no model (not accepted)' }, name);
  }
  switch (args.command) {
    case 'status': {
      const hubTree = statusTree(inputs, result);
      const afd = view && afdTree(view.resources);
      const tree: StatusNode = afd ? { ...hubTree, children: [...hubTree.children, afd] } : hubTree;
      print(tree, () => renderTree(tree, process.stdout.isTTY === true), args);
      return 0;
    }
    case 'explain': {
      if (!result.model || !plan) throw new Error(`Gateway ${name} has no model to route with (not accepted); see kubectl afd status ${gateway}`);
      const explanation = explainRequest(result.model, plan, args.request!, inputs.gateway.status?.addresses?.[0]?.value);
      print(explanation, () => renderExplanation(explanation), args);
      return 0;
    }
    case 'graph': {
      const graph = gatewayGraph(statusTree(inputs, result), view?.graph ?? plan?.graph, view?.resources);
      if (args.output === 'dot' || args.output === 'svg') {
        const dot = renderDot(graph, name);
        process.stdout.write(args.output === 'dot' ? dot : renderSvg(dot));
      } else if (args.output === 'mermaid') process.stdout.write(renderMermaid(graph));
      else print(graph, () => '', args);
      return 0;
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Expected failures (usage, kubeconfig, the API server's answer, no such Gateway) are one line, not a stack trace.
    process.stderr.write(`kubectl-afd: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) process.stderr.write('Run kubectl afd --help for usage.\n');
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
