import type { CustomResourceDefinition } from '@fleet-gateway/controller';

/** The annotations upstream puts on every Gateway API CRD (and that AKS's managed CRDs keep). */
export const BUNDLE_VERSION_ANNOTATION = 'gateway.networking.k8s.io/bundle-version';
export const CHANNEL_ANNOTATION = 'gateway.networking.k8s.io/channel';

/** The oldest release the agents support: a hub whose CRDs say nothing (or something unreadable) is taken as this one. */
export const OLDEST_SUPPORTED_RELEASE = 'v1.2.1';

/** A Gateway API release as `vMAJOR.MINOR.PATCH`, with the pre-release suffix (`-rc.1`, `-dev`) if any. */
export interface GatewayApiRelease {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly preRelease: boolean;
}

const RELEASE = /^v(\d+)\.(\d+)\.(\d+)(-.+)?$/;

/** The release a bundle-version names, or undefined when it is not of the form vX.Y.Z[-suffix]. */
export function parseGatewayApiRelease(version: string | undefined): GatewayApiRelease | undefined {
  const match = version === undefined ? null : RELEASE.exec(version.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), preRelease: match[4] !== undefined };
}

/**
 * Whether `served` is `since` or newer. A pre-release sorts before its release (v1.5.0-rc.1 < v1.5.0): a feature that
 * arrived in v1.5.0 is not assumed of its release candidate.
 */
export function releaseAtLeast(served: string, since: string): boolean {
  const a = parseGatewayApiRelease(served);
  const b = parseGatewayApiRelease(since);
  if (!a || !b) throw new Error(`not a Gateway API release: ${a ? since : served} (expected vMAJOR.MINOR.PATCH)`);
  const order = a.major - b.major || a.minor - b.minor || a.patch - b.patch || Number(b.preRelease) - Number(a.preRelease);
  return order >= 0;
}

/** What a Gateway API CRD says of the bundle it came from. */
export interface CrdBundle {
  /** The `bundle-version` annotation when it names a release, else the oldest supported release. */
  readonly release: string;
  /** The annotation as found (undefined: absent), for logs. */
  readonly bundleVersion: string | undefined;
  readonly channel: string | undefined;
}

/**
 * The release an installed Gateway API CRD belongs to. CRDs installed without upstream's annotations are taken as the
 * oldest supported release, so that nothing newer is claimed of them; their schema still decides which fields exist.
 */
export function crdBundle(crd: CustomResourceDefinition | undefined): CrdBundle {
  const annotations = crd?.metadata.annotations ?? {};
  const bundleVersion = annotations[BUNDLE_VERSION_ANNOTATION];
  return {
    release: parseGatewayApiRelease(bundleVersion) ? bundleVersion!.trim() : OLDEST_SUPPORTED_RELEASE,
    bundleVersion,
    channel: annotations[CHANNEL_ANNOTATION],
  };
}
