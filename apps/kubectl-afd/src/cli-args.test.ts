import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';

describe('parseCliArgs', () => {
  it('reads the command, the Gateway and kubectl’s connection flags', () => {
    expect(parseCliArgs(['status', 'edge', '-n', 'shop', '--context', 'hub', '--kubeconfig', '/k', '-o', 'json'])).toEqual({
      command: 'status',
      gateway: 'edge',
      output: 'json',
      defaultSku: 'Standard_AzureFrontDoor',
      namespace: 'shop',
      context: 'hub',
      kubeconfig: '/k',
    });
    expect(parseCliArgs(['--help'])).toBeUndefined();
  });

  it('defaults the output per command: text, and dot for graph', () => {
    expect(parseCliArgs(['status', 'edge'])?.output).toBe('text');
    expect(parseCliArgs(['graph', 'edge'])?.output).toBe('dot');
    expect(() => parseCliArgs(['status', 'edge', '-o', 'dot'])).toThrow('--output is "dot"; expected one of text, json, yaml');
  });

  it('reads explain’s request', () => {
    const args = parseCliArgs([
      'explain',
      'edge',
      '--host',
      'a.example.com',
      '--path',
      '/x',
      '--method',
      'post',
      '--header',
      'X-A=1=2',
      '--query',
      'q=',
      '--scheme',
      'https',
    ]);
    expect(args?.request).toEqual({
      scheme: 'https',
      host: 'a.example.com',
      path: '/x',
      method: 'POST',
      headers: [{ name: 'X-A', value: '1=2' }],
      query: [{ name: 'q', value: '' }],
    });
  });

  it('reads the hub’s Azure flags, all three or none; the endpoint and CA only with them', () => {
    const azure = ['--azure-subscription-id', 'sub', '--afd-resource-group', 'rg', '--hub-name', 'hub'];
    expect(parseCliArgs(['status', 'edge'])?.azure).toBeUndefined();
    expect(parseCliArgs(['status', 'edge', ...azure])?.azure).toEqual({ subscriptionId: 'sub', resourceGroup: 'rg', hubName: 'hub' });
    expect(parseCliArgs(['plan', '-f', 'c.yaml', ...azure, '--arm-endpoint', 'https://127.0.0.1:4443', '--arm-ca-file', '/ca.pem'])?.azure).toEqual({
      subscriptionId: 'sub',
      resourceGroup: 'rg',
      hubName: 'hub',
      armEndpoint: 'https://127.0.0.1:4443',
      armCaFile: '/ca.pem',
    });
    expect(() => parseCliArgs(['status', 'edge', '--azure-subscription-id', 'sub'])).toThrow(
      "--afd-resource-group, --hub-name missing; expected --azure-subscription-id, --afd-resource-group, --hub-name together to read Azure (the hub's own values)",
    );
    expect(() => parseCliArgs(['status', 'edge', '--arm-endpoint', 'https://x'])).toThrow('--arm-endpoint and --arm-ca-file need --azure-subscription-id');
    expect(() => parseCliArgs(['status', 'edge', ...azure, '--arm-endpoint', 'management'])).toThrow('--arm-endpoint is "management"; expected a URL');
  });

  it('names the argument, the value and what is expected', () => {
    expect(() => parseCliArgs([])).toThrow('a command is missing; expected one of status, explain, graph, plan');
    expect(() => parseCliArgs(['show', 'edge'])).toThrow('command is "show"; expected one of status, explain, graph, plan');
    expect(() => parseCliArgs(['status'])).toThrow('status needs a GATEWAY name');
    expect(() => parseCliArgs(['explain', 'edge'])).toThrow('explain needs --host');
    expect(() => parseCliArgs(['explain', 'edge', '--host', 'h', '--header', 'novalue'])).toThrow('--header is "novalue"; expected NAME=VALUE');
    expect(() => parseCliArgs(['explain', 'edge', '--host', 'h', '--path', 'x'])).toThrow('--path is "x"; expected a path starting with /');
    expect(() => parseCliArgs(['status', 'edge', '--default-afd-sku', 'Classic'])).toThrow('--default-afd-sku is "Classic"');
    expect(() => parseCliArgs(['status', 'edge', '--frobnicate'])).toThrow("Unknown option '--frobnicate'");
  });
});
