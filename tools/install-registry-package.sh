#!/usr/bin/env bash
# install-registry-package.sh SPEC INTEGRITY TARGET
# Fetches one npm registry package tarball with the machine's npm (so its registry configuration applies), checks it
# against INTEGRITY (sha512-<base64>, as the registry's dist.integrity gives it) and unpacks it into TARGET, which it
# replaces only once the check passed. SPEC is anything `npm pack` takes (name@version, or a folder in tests).
set -euo pipefail
spec="$1" integrity="$2" target="$3"
case "$integrity" in
  sha512-*) ;;
  *) echo "integrity for $spec must be sha512-<base64>, got '$integrity'" >&2; exit 1 ;;
esac
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "installing $spec into $target"
(cd "$work" && npm pack --silent "$spec" >/dev/null)
tarball="$(ls "$work"/*.tgz)"
expected="$(printf '%s' "${integrity#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')"
actual="$(sha512sum "$tarball" | cut -d' ' -f1)"
if [ "$actual" != "$expected" ]; then
  echo "integrity mismatch for $spec: expected sha512 $expected, got $actual; nothing installed" >&2
  exit 1
fi
mkdir -p "$work/unpacked"
tar -xzf "$tarball" -C "$work/unpacked" --strip-components=1
rm -rf "$target"
mkdir -p "$(dirname "$target")"
mv "$work/unpacked" "$target"
