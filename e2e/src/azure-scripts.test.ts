/**
 * E2E_MODE=azure's scripts, as far as they can be checked without Azure (none can be reached from our machines):
 * setup.sh's dry run (DRY_RUN=1 prints each az, kubectl and helm command instead of running it) against
 * deploy/azure-roles (the role definitions and assignments.json), and cleanup.sh's ownership rules. The `az`,
 * `kubectl` and `helm` on PATH here are stand-ins that record every call: in a dry run none may be called; for
 * cleanup.sh the az stand-in answers `az resource show` from a table of tags, as Azure would with the resources' real
 * tags.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from './azure-preflight.js';
import { AZURE_SCRIPTS_DIR, parseCreated, parseOutputs, scriptEnvironment } from './azure-scripts.js';
import { REPO_ROOT } from './e2e-state.js';
import { readShippedAssignments, readShippedRoles } from '@fleet-gateway/azure-emulator';
import { E2E_AUTO_MEMBER, E2E_MEMBERS } from './system-under-test.js';

const SUB = '11111111-2222-3333-4444-555555555555';
const RG = 'fleet-e2e';
const RUN = 'abc123';
const STAND_IN = `#!/usr/bin/env bash
printf '%s %s\\n' "$(basename "$0")" "$*" >>"$STAND_IN_CALLS"
if [[ "$(basename "$0")" == az && "$1 $2" == "resource show" ]]; then
  while [[ $# -gt 0 && "$1" != --ids ]]; do shift; done
  tag=$(awk -F'\\t' -v id="$2" '$1 == id { print $2 }' "$STAND_IN_TAGS")
  if [[ -z "$tag" ]]; then echo "ERROR: (ResourceNotFound) The Resource '$2' was not found." >&2; exit 3; fi
  printf '%s\\n' "$tag"
fi
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fleet-gateway-azure-scripts-'));
  await mkdir(path.join(dir, 'bin'));
  for (const tool of ['az', 'kubectl', 'helm']) {
    await writeFile(path.join(dir, 'bin', tool), STAND_IN);
    await chmod(path.join(dir, 'bin', tool), 0o755);
  }
  await writeFile(path.join(dir, 'tags.tsv'), '');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const calls = async (): Promise<string[]> =>
  existsSync(path.join(dir, 'calls')) ? (await readFile(path.join(dir, 'calls'), 'utf8')).split('\n').filter(Boolean) : [];

async function runScript(script: string, extra: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const stubs = { PATH: `${path.join(dir, 'bin')}:/usr/bin:/bin`, STAND_IN_CALLS: path.join(dir, 'calls'), STAND_IN_TAGS: path.join(dir, 'tags.tsv') };
  const azure = { subscriptionId: SUB, resourceGroup: RG, networkSetting: 'shared-vnet', location: 'eastus2' };
  const env = { ...scriptEnvironment(azure, { dir: path.join(dir, 'run'), runId: RUN }, 'helm', stubs), ...extra };
  const answer = await runCommand('bash', [path.join(AZURE_SCRIPTS_DIR, script)], env);
  if (!answer.found) throw new Error('bash is not on PATH');
  return { code: answer.code, stderr: answer.stderr };
}

/** Pure: the words of a line printed by bash's `printf %q` (backslash escapes and single quotes). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quoted) {
      if (c === "'") quoted = false;
      else word += c;
    } else if (c === "'") quoted = true;
    else if (c === '\\') word += line[++i] ?? '';
    else if (c === ' ') {
      if (word) words.push(word);
      word = '';
    } else word += c;
  }
  if (word) words.push(word);
  return words;
}

const option = (words: readonly string[], name: string): string => {
  const at = words.indexOf(name);
  if (at < 0 || at + 1 >= words.length) throw new Error(`no ${name} in: ${words.join(' ')}`);
  return words[at + 1] ?? '';
};

/** deploy/azure-roles/assignments.json: identity, the role an assignment names (a custom role's Name) and e2e's scope. */
function roleAssignments(): { identity: string; role: string; e2eScope: string | null }[] {
  const roles = readShippedRoles();
  return readShippedAssignments().map((a) => {
    const role = a.builtInRole ?? roles.find((r) => r.key === a.role)?.definition.name;
    if (role === undefined) throw new Error(`assignments.json names a role no file defines: ${a.role}`);
    return { identity: a.identity, role, e2eScope: a.e2eScope };
  });
}

/** Which principals of the dry run (`dry-run-principal-of-<who>`) an assignment's identity names. */
const TABLE_IDENTITIES: Record<string, readonly string[]> = {
  hub: ['hub'],
  member: E2E_MEMBERS,
  'member with auto-approval': [E2E_AUTO_MEMBER],
  "e2e: the clusters' control plane": ['aks'],
  "e2e: each cluster's kubelet": ['kubelet-hub', ...E2E_MEMBERS.map((m) => `kubelet-${m}`)],
};

describe('e2e/azure/setup.sh, dry run', () => {
  it('grants exactly assignments.json’s roles on its scopes, each recorded, none on one Private Link Service, and calls nothing', async () => {
    const { code, stderr } = await runScript('setup.sh', { DRY_RUN: '1' });
    expect(code, stderr).toBe(0);
    expect(await calls()).toEqual([]);

    const runDir = path.join(dir, 'run');
    const created = parseCreated(await readFile(path.join(runDir, 'created.tsv'), 'utf8'));
    const outputs = parseOutputs(await readFile(path.join(runDir, 'outputs.env'), 'utf8'));
    const groupId = (name: string | undefined) => `/subscriptions/${SUB}/resourceGroups/${name ?? '<missing output>'}`;
    const scopesOf = (placeholder: string, who: string): string[] => {
      const values: Record<string, () => string[]> = {
        '{AFD resource group}': () => [groupId(outputs['afdResourceGroup'])],
        '{WAF policy}': () => [outputs['wafPolicyId'] ?? '<missing output>'],
        '{node resource group of each member}': () => E2E_MEMBERS.map((m) => groupId(outputs[`nodeResourceGroup.${m}`])),
        '{node resource group of the member}': () => [groupId(outputs[`nodeResourceGroup.${who}`])],
        '{virtual network}': () => created.filter((c) => c.kind === 'vnet').map((c) => c.id),
        '{container registry}': () => created.filter((c) => c.kind === 'acr').map((c) => c.id),
      };
      const value = values[placeholder];
      if (!value) throw new Error(`assignments.json names a scope the test does not know: ${placeholder}`);
      return value();
    };

    const expected: string[] = [];
    for (const row of roleAssignments()) {
      if (row.e2eScope === null) continue;
      const principals = TABLE_IDENTITIES[row.identity];
      if (!principals) throw new Error(`assignments.json names an identity the test does not know: ${row.identity}`);
      for (const who of principals) for (const scope of scopesOf(row.e2eScope, who)) expected.push(`${who} | ${row.role} | ${scope}`);
    }

    const grants = stderr
      .split('\n')
      .filter((line) => line.startsWith('+ az role assignment create '))
      .map((line) => shellWords(line.slice(2)));
    const actual = grants.map(
      (words) => `${option(words, '--assignee-object-id').replace(/^dry-run-principal-of-/, '')} | ${option(words, '--role')} | ${option(words, '--scope')}`,
    );
    expect(actual.sort()).toEqual(expected.sort());
    // The hub's three rows and the members' on both members, the auto-approval member's, and e2e's own four.
    expect(actual).toHaveLength(1 + 1 + 2 + 2 + 1 + 1 + 3);

    for (const words of grants) {
      const scope = option(words, '--scope');
      expect(scope).not.toMatch(/privateLinkServices/i);
      expect(scope).toMatch(new RegExp(`^/subscriptions/${SUB}/resourceGroups/[^/]+(/providers/.+)?$`));
      expect(option(words, '--subscription')).toBe(SUB);
    }
    // Recorded before it is created, by the id its GUID name gives it, so that cleanup.sh can delete it by id.
    expect(created.filter((c) => c.kind === 'roleAssignment').map((c) => c.id)).toEqual(
      grants.map((words) => `${option(words, '--scope')}/providers/Microsoft.Authorization/roleAssignments/${option(words, '--name')}`),
    );
    for (const words of grants) expect(option(words, '--name')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('creates each custom role of deploy/azure-roles, assignable in the subscription only, before any grant names it', async () => {
    const { code, stderr } = await runScript('setup.sh', { DRY_RUN: '1' });
    expect(code, stderr).toBe(0);
    const commands = stderr
      .split('\n')
      .filter((l) => l.startsWith('+ '))
      .map((l) => shellWords(l.slice(2)));
    const definitions = commands.filter((w) => w[0] === 'az' && w[1] === 'role' && w[2] === 'definition' && w[3] === 'create');
    const written = await Promise.all(
      definitions.map(async (w) => JSON.parse(await readFile(option(w, '--role-definition').replace(/^@/, ''), 'utf8')) as Record<string, unknown>),
    );
    const roles = readShippedRoles();
    expect(written.map((d) => d['Name']).sort()).toEqual(roles.map((r) => r.definition.name).sort());
    for (const role of roles) {
      const source = JSON.parse(await readFile(role.file, 'utf8')) as Record<string, unknown>;
      expect(written.find((d) => d['Name'] === role.definition.name)).toEqual({ ...source, AssignableScopes: [`/subscriptions/${SUB}`] });
    }
    const firstGrant = commands.findIndex(
      (w) => w[0] === 'az' && w[1] === 'role' && w[2] === 'assignment' && roles.some((r) => r.definition.name === option(w, '--role')),
    );
    expect(firstGrant).toBeGreaterThan(commands.indexOf(definitions.at(-1) ?? []));
  });

  it('creates every resource with this run’s tag and records it; installs the CRDs and charts as the README says', async () => {
    const { code, stderr } = await runScript('setup.sh', { DRY_RUN: '1' });
    expect(code, stderr).toBe(0);
    const commands = stderr
      .split('\n')
      .filter((l) => l.startsWith('+ '))
      .map((l) => shellWords(l.slice(2)));
    const creates = commands.filter(
      (w) =>
        w[0] === 'az' &&
        (w.includes('create') || w.includes('put')) &&
        !w.includes('assignment') &&
        !w.includes('definition') &&
        !w.includes('subnet') &&
        !w.includes('federated-credential'),
    );
    expect(creates.length).toBeGreaterThanOrEqual(9);
    for (const words of creates) {
      const tagged = words.includes(`fleet-gateway-e2e=${RUN}`) || words.some((w) => w.includes(`"fleet-gateway-e2e":"${RUN}"`));
      expect(tagged, words.join(' ')).toBe(true);
    }
    const created = parseCreated(await readFile(path.join(dir, 'run', 'created.tsv'), 'utf8'));
    expect(created.map((c) => c.kind).filter((k) => k !== 'roleAssignment')).toEqual([
      'resourceGroup',
      'vnet',
      'acr',
      'wafPolicy',
      'identity',
      'identity',
      'identity',
      'identity',
      'aks',
      'aks',
      'aks',
    ]);
    expect(commands.filter((w) => w[0] === 'az' && w[1] === 'acr' && w[2] === 'build').map((w) => option(w, '--file'))).toEqual([
      path.join(REPO_ROOT, 'apps/hub-gateway/Dockerfile'),
      path.join(REPO_ROOT, 'apps/member-discovery/Dockerfile'),
      path.join(REPO_ROOT, 'e2e/azure/echo/Dockerfile'),
    ]);
    expect(
      commands.some((w) => w[0] === 'kubectl' && w.includes('https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.2.1/standard-install.yaml')),
    ).toBe(true);
    const installs = commands.filter((w) => w[0] === 'helm' && w[1] === 'upgrade');
    expect(installs).toHaveLength(3);
    for (const words of installs)
      expect(words).toEqual(expect.arrayContaining(['--install', '--take-ownership', '--force-conflicts', 'workloadIdentity.enabled=true']));
    const approvals = installs
      .slice(1)
      .map((w) => [w.find((x) => x.startsWith('memberClusterName=')), w.find((x) => x.startsWith('approvePrivateLinkConnections='))]);
    expect(approvals).toEqual([
      [`memberClusterName=${E2E_AUTO_MEMBER}`, 'approvePrivateLinkConnections=true'],
      ['memberClusterName=member-2', 'approvePrivateLinkConnections=false'],
    ]);
    const outputs = parseOutputs(await readFile(path.join(dir, 'run', 'outputs.env'), 'utf8'));
    expect(outputs['nodeBaseImage']).toMatch(/^docker\.io\/library\/node:26\.12\.1-bookworm-slim@sha256:/);
    // The echo backend the scenarios deploy behind their Services is the image built in the run's registry.
    const echoBuild = commands.find((w) => w[0] === 'az' && w[2] === 'build' && option(w, '--file').endsWith('e2e/azure/echo/Dockerfile'));
    expect(outputs['echoImage']).toBe(`fgwe2e${RUN}.azurecr.io/${option(echoBuild ?? [], '--image')}`);
  });

  it('refuses a network shape it does not build, before any command', async () => {
    const { code, stderr } = await runScript('setup.sh', { AZURE_NETWORK_SETTING: 'peered-vnet' });
    expect(code).toBe(2);
    expect(stderr).toContain('AZURE_NETWORK_SETTING=peered-vnet is not built by e2e/azure (only shared-vnet is); nothing was created');
    expect(await calls()).toEqual([]);
    expect(existsSync(path.join(dir, 'run'))).toBe(false);
  });
});

describe('e2e/azure/cleanup.sh', () => {
  const id = (type: string, name: string) => `/subscriptions/${SUB}/resourceGroups/${RG}/providers/${type}/${name}`;
  const group = `/subscriptions/${SUB}/resourceGroups/${RG}`;
  const identity = id('Microsoft.ManagedIdentity/userAssignedIdentities', 'fgw-e2e-abc123-hub');
  const cluster = id('Microsoft.ContainerService/managedClusters', 'fgw-e2e-abc123-hub');
  const assignment = `${group}/providers/Microsoft.Authorization/roleAssignments/0000`;

  async function record(lines: [string, string][], tags: [string, string][]) {
    await mkdir(path.join(dir, 'run'), { recursive: true });
    await writeFile(path.join(dir, 'run', 'created.tsv'), lines.map(([k, v]) => `${k}\t${v}\n`).join(''));
    await writeFile(path.join(dir, 'tags.tsv'), tags.map(([k, v]) => `${k}\t${v}\n`).join(''));
  }
  const deletes = async () => (await calls()).filter((c) => / delete /.test(c));

  it('removes what the run recorded, newest first, then its record; a second run does nothing', async () => {
    await record(
      [
        ['resourceGroup', group],
        ['identity', identity],
        ['aks', cluster],
        ['roleAssignment', assignment],
      ],
      [
        [group, RUN],
        [identity, RUN],
        [cluster, RUN],
      ],
    );
    const first = await runScript('cleanup.sh', {});
    expect(first.code, first.stderr).toBe(0);
    expect(await deletes()).toEqual([
      `az role assignment delete --subscription ${SUB} --ids ${assignment}`,
      `az aks delete --subscription ${SUB} --ids ${cluster} --yes`,
      `az resource delete --subscription ${SUB} --ids ${identity}`,
      `az group delete --subscription ${SUB} --name ${RG} --yes`,
    ]);
    expect(existsSync(path.join(dir, 'run', 'created.tsv'))).toBe(false);

    await rm(path.join(dir, 'calls'));
    const second = await runScript('cleanup.sh', {});
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('nothing to remove');
    expect(await calls()).toEqual([]);
  });

  it('never deletes what does not carry this run’s tag (a reused or another run’s resource group), and keeps the record', async () => {
    await record(
      [
        ['resourceGroup', group],
        ['identity', identity],
      ],
      [
        [group, 'zzz999'],
        [identity, RUN],
      ],
    );
    const result = await runScript('cleanup.sh', {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`resourceGroup ${group} carries fleet-gateway-e2e="zzz999", not this run's "${RUN}": not ours to delete; left in place`);
    expect(await deletes()).toEqual([`az resource delete --subscription ${SUB} --ids ${identity}`]);
    expect(existsSync(path.join(dir, 'run', 'created.tsv'))).toBe(true);
  });

  it('skips what is already gone (an interrupted cleanup runs again)', async () => {
    await record(
      [
        ['identity', identity],
        ['aks', cluster],
      ],
      [[identity, RUN]],
    );
    const result = await runScript('cleanup.sh', {});
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`aks ${cluster} is already gone`);
    expect(await deletes()).toEqual([`az resource delete --subscription ${SUB} --ids ${identity}`]);
  });
});
