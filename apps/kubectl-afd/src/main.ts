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
import { PLAN_OPTIONS, planChange, readChange, renderPlanChange, withChange } from './plan-change.js';
import { statusTree } from './status-tree.js';

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

/** kubectl afd: reads the hub (never writes) and answers one command. */
async function main(argv: readonly string[]): Promise<number> {
  const args = parseCliArgs(argv);
  if (!args) {
    process.stdout.write(USAGE);
    return 0;
  }
  const kubeConfig = loadKubeConfig(args);
  const namespace = namespaceOf(kubeConfig, args);
  if (args.command === 'plan') {
    // The change is read first: a bad file is reported before the hub is asked anything.
    const text = await readFile(args.filename!, 'utf8').catch((error: Error) => {
      throw new UsageError(`-f is "${args.filename}", which cannot be read (${error.message}); expected a YAML file of the objects to apply`);
    });
    const change = readChange(text, namespace);
    const objects = await readHubObjects(kubeConfig);
    const changes = planChange(objects, withChange(objects, change), args.defaultSku, args.gateway && `${namespace}/${args.gateway}`);
    print(changes, () => renderPlanChange(changes), args);
    return 0;
  }
  const objects = await readHubObjects(kubeConfig);
  const gateway = args.gateway!;
  const inputs = gatewayInputs(objects, namespace, gateway, args.defaultSku);
  const result = resolveGateway(inputs);
  switch (args.command) {
    case 'status': {
      const tree = statusTree(inputs, result);
      print(tree, () => renderTree(tree, process.stdout.isTTY === true), args);
      return 0;
    }
    case 'explain': {
      if (!result.model) throw new Error(`Gateway ${namespace}/${gateway} has no model to route with (not accepted); see kubectl afd status ${gateway}`);
      const plan = planFrontDoor(result.model, PLAN_OPTIONS);
      const explanation = explainRequest(result.model, plan, args.request!, inputs.gateway.status?.addresses?.[0]?.value);
      print(explanation, () => renderExplanation(explanation), args);
      return 0;
    }
    case 'graph': {
      const graph = gatewayGraph(statusTree(inputs, result), result.model && planFrontDoor(result.model, PLAN_OPTIONS));
      if (args.output === 'dot' || args.output === 'svg') {
        const dot = renderDot(graph, `${namespace}/${gateway}`);
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
