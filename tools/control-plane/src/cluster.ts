import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { ControlPlaneBinaries } from './binaries.js';
import { createClusterCertificates, type ClusterCertificates } from './certificates.js';
import { waitCustomResourcesServed } from './crd-install.js';
import { renderKubeconfig } from './kubeconfig.js';
import { freePorts } from './ports.js';
import { startProcess, type ManagedProcess } from './processes.js';
import { waitReady } from './wait-ready.js';

export interface ClusterOptions {
  name: string;
  dir: string;
  etcdEndpoint: string;
  binaries: ControlPlaneBinaries;
  controllerManager: boolean;
  extraApiServerArgs: string[];
  startTimeoutMs: number;
  detached: boolean;
}

/** One cluster: a kube-apiserver (and optionally a kube-controller-manager) over its own etcd prefix. */
export class Cluster {
  readonly name: string;
  readonly server: string;
  readonly kubeconfigPath: string;
  readonly etcdPrefix: string;
  private apiServer?: ManagedProcess;
  private controllerManager?: ManagedProcess;
  /** Set once a detached plane has started: its processes, restarted ones included, outlive this process. */
  private released = false;

  private constructor(
    private readonly options: ClusterOptions,
    readonly port: number,
    readonly certificates: ClusterCertificates,
  ) {
    this.name = options.name;
    this.server = `https://127.0.0.1:${port}`;
    this.kubeconfigPath = path.join(options.dir, 'kubeconfig');
    this.etcdPrefix = `/registry-${options.name}`;
  }

  static async create(options: ClusterOptions): Promise<Cluster> {
    await mkdir(path.join(options.dir, 'pki'), { recursive: true });
    const [port] = await freePorts(1);
    const cluster = new Cluster(options, port!, await createClusterCertificates(options.name));
    await cluster.writeFiles();
    return cluster;
  }

  get caCert(): string {
    return this.certificates.caCert;
  }

  /** Process ids of what runs now, for the detached state file and leak checks. */
  get pids(): number[] {
    return [this.apiServer?.pid, this.controllerManager?.pid].filter((p): p is number => p !== undefined);
  }

  kubeConfig(): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromFile(this.kubeconfigPath);
    return kc;
  }

  private pki(file: string): string {
    return path.join(this.options.dir, 'pki', file);
  }

  private async writeFiles(): Promise<void> {
    const c = this.certificates;
    const files: Record<string, string> = {
      'ca.crt': c.caCert,
      'apiserver.crt': c.servingCert,
      'apiserver.key': c.servingKey,
      'admin.crt': c.adminCert,
      'admin.key': c.adminKey,
      'sa.key': c.serviceAccountKey,
      'sa.pub': c.serviceAccountPublicKey,
    };
    for (const [name, pem] of Object.entries(files)) await writeFile(this.pki(name), pem, { mode: 0o600 });
    await writeFile(
      this.kubeconfigPath,
      renderKubeconfig({
        cluster: this.name,
        server: this.server,
        caCert: c.caCert,
        user: 'admin',
        credentials: { clientCert: c.adminCert, clientKey: c.adminKey },
      }),
      { mode: 0o600 },
    );
  }

  private apiServerArgs(): string[] {
    return [
      `--etcd-servers=${this.options.etcdEndpoint}`,
      `--etcd-prefix=${this.etcdPrefix}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${this.port}`,
      `--cert-dir=${path.join(this.options.dir, 'pki')}`,
      `--tls-cert-file=${this.pki('apiserver.crt')}`,
      `--tls-private-key-file=${this.pki('apiserver.key')}`,
      `--client-ca-file=${this.pki('ca.crt')}`,
      '--authorization-mode=RBAC',
      `--service-account-issuer=${this.server}`,
      `--service-account-key-file=${this.pki('sa.pub')}`,
      `--service-account-signing-key-file=${this.pki('sa.key')}`,
      '--service-cluster-ip-range=10.96.0.0/16',
      '--allow-privileged=true',
      // Without the service-account controller no namespace gets a default ServiceAccount to admit Pods with.
      ...(this.options.controllerManager ? [] : ['--disable-admission-plugins=ServiceAccount']),
      '--profiling=false',
      '--v=0',
      ...this.options.extraApiServerArgs,
    ];
  }

  private controllerManagerArgs(): string[] {
    return [
      `--kubeconfig=${this.kubeconfigPath}`,
      '--leader-elect=false',
      '--use-service-account-credentials=false',
      '--secure-port=0',
      '--controllers=namespace-controller,garbage-collector-controller,serviceaccount-controller,serviceaccount-token-controller,root-ca-certificate-publisher-controller',
      `--service-account-private-key-file=${this.pki('sa.key')}`,
      `--root-ca-file=${this.pki('ca.crt')}`,
      '--v=0',
    ];
  }

  private tls() {
    return { ca: this.certificates.caCert, cert: this.certificates.adminCert, key: this.certificates.adminKey };
  }

  async startApiServer(): Promise<void> {
    if (this.apiServer) return;
    const proc = startProcess(
      `kube-apiserver (${this.name})`,
      this.options.binaries.kubeApiServer,
      this.apiServerArgs(),
      path.join(this.options.dir, 'kube-apiserver.log'),
      { detached: this.options.detached },
    );
    this.apiServer = proc;
    try {
      await waitReady(proc, `${this.server}/readyz`, { tls: this.tls(), timeoutMs: this.options.startTimeoutMs });
      // After a restart, the CRDs already installed serve again only once their storage is initialized.
      await waitCustomResourcesServed(this.kubeConfig(), undefined, this.options.startTimeoutMs);
    } catch (error) {
      await proc.stop(1_000);
      this.apiServer = undefined;
      throw error;
    }
    if (this.released) proc.release();
  }

  async stopApiServer(): Promise<void> {
    const proc = this.apiServer;
    this.apiServer = undefined;
    // With CRDs served, kube-apiserver 1.36 finishes its shutdown sequence within a second or so and then idles
    // for many seconds before exiting; by then it has stopped listening and holds nothing worth waiting for.
    await proc?.stop(3_000);
  }

  /** Same port, same certificates, same etcd data: clients' kubeconfigs stay valid. */
  async restartApiServer(): Promise<void> {
    await this.stopApiServer();
    await this.startApiServer();
  }

  async startControllerManager(): Promise<void> {
    const binary = this.options.binaries.kubeControllerManager;
    if (!this.options.controllerManager || this.controllerManager) return;
    if (!binary) throw new Error('kube-controller-manager is not available (KUBEBUILDER_ASSETS holds no kube-controller-manager)');
    this.controllerManager = startProcess(
      `kube-controller-manager (${this.name})`,
      binary,
      this.controllerManagerArgs(),
      path.join(this.options.dir, 'kube-controller-manager.log'),
      { detached: this.options.detached },
    );
    if (this.released) this.controllerManager.release();
  }

  /** Hands a detached cluster's processes over to the state file: from now on they outlive this process. */
  release(): void {
    this.released = true;
    this.apiServer?.release();
    this.controllerManager?.release();
  }

  async stop(): Promise<void> {
    const kcm = this.controllerManager;
    this.controllerManager = undefined;
    await Promise.all([kcm?.stop(), this.stopApiServer()]);
  }
}
