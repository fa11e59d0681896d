import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ensureBinaries } from './binaries.js';
import { Cluster } from './cluster.js';
import { installCrds, type CrdSelection } from './crd-install.js';
import { startEtcd, type EtcdServer } from './etcd.js';
import { createMemberHubCredentials, writeMemberHubKubeconfig } from './member-credentials.js';
import { removeOnExit } from './processes.js';
import { createWorkDir } from './work-dirs.js';

export interface ControlPlaneOptions {
  /** Cluster names, e.g. ['hub', 'member-1', 'member-2']. Each gets its own API server and etcd prefix. */
  clusters: string[];
  /** Run kube-controller-manager per cluster (namespace, GC, service-account controllers). Default: true. */
  controllerManager?: boolean;
  /** Extra kube-apiserver flags per cluster, e.g. { hub: ['--watch-cache=false'] }. */
  apiServerArgs?: Record<string, string[]>;
  /** Install CRDs into these clusters once they are up (default: none). */
  crds?: Record<string, CrdSelection>;
  /** Where state goes; default: a new temporary folder that stop() removes. Required when detached. */
  workDir?: string;
  /** Leave the processes running when this process exits (for the local system and `make e2e-setup`), once all started. */
  detached?: boolean;
  /**
   * A detached plane stays tied to this process after start-up too, until `release()`: for a caller that starts more
   * (the local system) and hands everything over at once, so that an interruption in between still stops the plane.
   */
  holdUntilReleased?: boolean;
  startTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface ControlPlaneState {
  workDir: string;
  etcd: { endpoint: string; pid: number };
  clusters: { name: string; server: string; kubeconfig: string; pids: number[] }[];
}

export interface ControlPlane {
  readonly workDir: string;
  readonly etcd: EtcdServer;
  readonly clusters: readonly Cluster[];
  cluster(name: string): Cluster;
  installCrds(cluster: string, selection?: CrdSelection): Promise<string[]>;
  /** A kubeconfig for the member's agent on the hub, allowed only in fleet-member-<member>. Returns its path. */
  memberHubKubeconfig(member: string, hub?: string): Promise<string>;
  /** Compacts etcd at its current revision so that older watches and lists get 410 Gone. */
  compactEtcd(): Promise<number>;
  /** Hands a detached plane held by `holdUntilReleased` over to its state file: it now outlives this process. */
  release(): void;
  /** Every process id the plane started that runs now. */
  pids(): number[];
  state(): ControlPlaneState;
  stop(): Promise<void>;
}

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const names = options.clusters;
  if (names.length === 0 || new Set(names).size !== names.length || names.some((n) => !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(n))) {
    throw new Error(`clusters must be distinct DNS labels, got ${JSON.stringify(names)}`);
  }
  const detached = options.detached === true;
  if (detached && options.workDir === undefined) {
    throw new Error('a detached control plane needs a workDir: its stop command finds the plane there');
  }
  const binaries = await ensureBinaries(log);
  const ownsWorkDir = options.workDir === undefined;
  // A plane never starts on another's files: etcd would serve the earlier plane's objects as if they were new.
  if (options.workDir !== undefined && existsSync(options.workDir) && (await readdir(options.workDir)).length > 0) {
    throw new Error(
      `refusing to start a control plane in ${options.workDir}: it already holds files (an earlier plane's etcd data would be reused); stop that plane or remove the folder`,
    );
  }
  const createdWorkDir = options.workDir === undefined || !existsSync(options.workDir);
  const workDir = options.workDir ?? (await createWorkDir());
  await mkdir(workDir, { recursive: true });
  // Until it is handed over, a folder this plane created goes with it: an interrupted start leaves none behind.
  const releaseWorkDir = ownsWorkDir || (detached && createdWorkDir) ? removeOnExit(workDir) : () => false;
  const timeoutMs = options.startTimeoutMs ?? 90_000;
  const clusters: Cluster[] = [];
  let etcd: EtcdServer | undefined;
  const byName = (name: string): Cluster => {
    const found = clusters.find((c) => c.name === name);
    if (!found) throw new Error(`no cluster named ${name}; this plane has ${names.join(', ')}`);
    return found;
  };
  const stopAll = async (): Promise<void> => {
    await Promise.all(clusters.map((c) => c.stop()));
    await etcd?.process.stop();
    if (ownsWorkDir) await rm(workDir, { recursive: true, force: true });
    releaseWorkDir();
  };
  const state = (): ControlPlaneState => ({
    workDir,
    etcd: { endpoint: etcd?.endpoint ?? '', pid: etcd?.process.pid ?? 0 },
    clusters: clusters.map((c) => ({ name: c.name, server: c.server, kubeconfig: c.kubeconfigPath, pids: c.pids })),
  });
  // Until start-up completes every process dies with this one, detached or not: a failed or interrupted start
  // leaves nothing behind, and a detached plane is handed over to its state file only once it is whole.
  try {
    log('starting etcd…');
    etcd = await startEtcd(binaries.etcd, path.join(workDir, 'etcd'), timeoutMs, detached);
    for (const name of names) {
      clusters.push(
        await Cluster.create({
          name,
          dir: path.join(workDir, name),
          etcdEndpoint: etcd.endpoint,
          binaries,
          controllerManager: options.controllerManager ?? true,
          extraApiServerArgs: options.apiServerArgs?.[name] ?? [],
          startTimeoutMs: timeoutMs,
          detached,
        }),
      );
    }
    // API servers start one after another: on two cores a parallel start is no faster and far noisier.
    for (const cluster of clusters) {
      log(`starting kube-apiserver for ${cluster.name}, waiting until it serves…`);
      await cluster.startApiServer();
      await cluster.startControllerManager();
      log(`${cluster.name}: ${cluster.server} (kubeconfig ${cluster.kubeconfigPath})`);
    }
    for (const [name, selection] of Object.entries(options.crds ?? {})) {
      log(`installing CRDs in ${name}, waiting until they are served…`);
      await installCrds(byName(name).kubeConfig(), selection);
    }
    await writeFile(path.join(workDir, 'state.json'), JSON.stringify(state(), null, 2));
  } catch (error) {
    await stopAll();
    if (createdWorkDir) await rm(workDir, { recursive: true, force: true, maxRetries: 5 });
    throw error;
  }
  const etcdServer = etcd;
  const release = (): void => {
    if (!detached) throw new Error('only a detached control plane can be released to outlive this process');
    etcdServer.process.release();
    for (const cluster of clusters) cluster.release();
    releaseWorkDir();
  };
  if (detached && options.holdUntilReleased !== true) release();
  const plane: ControlPlane = {
    workDir,
    etcd: etcdServer,
    clusters,
    cluster: byName,
    installCrds: (name, selection) => installCrds(byName(name).kubeConfig(), selection),
    async memberHubKubeconfig(member, hub = 'hub') {
      const hubCluster = byName(hub);
      const credentials = await createMemberHubCredentials(hubCluster.kubeConfig(), hubCluster.server, hubCluster.caCert, member);
      const file = path.join(workDir, hub, `member-${member}.kubeconfig`);
      await writeMemberHubKubeconfig(file, credentials);
      return file;
    },
    compactEtcd: () => etcdServer.compact(),
    release,
    pids: () => [etcdServer.process.pid, ...clusters.flatMap((c) => c.pids)],
    state,
    stop: stopAll,
  };
  log(`control plane ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return plane;
}
